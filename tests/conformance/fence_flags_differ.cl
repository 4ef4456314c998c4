/* fence_flags_differ.cl - one barrier, reached by every item, with fence flags that
 * differ between items: divergence of its flags, not between two barriers.
 */
kernel void f(global int *x)
{
	size_t lid = get_local_id(0);
	barrier(lid % 2 ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE);
	x[get_global_id(0)] = 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel f --global 16 --local 8
 * expect: error barrier-divergence fence-flags 7
 */
