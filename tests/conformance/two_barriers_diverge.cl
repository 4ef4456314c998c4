/* two_barriers_diverge.cl - odd and even items wait at two different barriers.
 */
kernel void f(global int *x)
{
	size_t lid = get_local_id(0);
	if (lid % 2)
		barrier(CLK_LOCAL_MEM_FENCE);
	else
		barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel f --global 16 --local 8
 * expect: error barrier-divergence barrier 7 9
 */
