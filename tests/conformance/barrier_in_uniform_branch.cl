/* barrier_in_uniform_branch.cl - a barrier under a condition every item of the group
 * takes alike: no divergence.
 */
kernel void uniform(global int *x, local int *tmp)
{
	size_t lid = get_local_id(0);
	tmp[lid] = (int)lid;
	if (get_group_id(0) % 2 == 0)
		barrier(CLK_LOCAL_MEM_FENCE);
	else
		barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = tmp[(lid + 1) % get_local_size(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel uniform --global 32 --local 8
 */
