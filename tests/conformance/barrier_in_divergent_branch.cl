/* barrier_in_divergent_branch.cl - only the first half of each work-group reaches the
 * barrier: barrier divergence.
 */
kernel void halves(global int *x, local int *tmp)
{
	size_t lid = get_local_id(0);
	if (lid < get_local_size(0) / 2) {
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	x[get_global_id(0)] = (int)lid;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel halves --global 32 --local 8
 * expect: error barrier-divergence barrier 8
 */
