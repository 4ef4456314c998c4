/* whole_group_returns.cl - one work-group returns before the barrier, every item of it:
 * the barrier is uniform in each group that reaches it, so no divergence.
 */
kernel void skip_group(global float *x, local float *t)
{
	if (get_group_id(0) == 1)
		return;
	size_t lid = get_local_id(0);
	t[lid] = x[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = t[get_local_size(0) - 1 - lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel skip_group --global 24 --local 8 --device pocl,oclgrind
 */
