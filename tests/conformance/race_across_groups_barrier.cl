/* race_across_groups_barrier.cl - a barrier orders the items of one work-group, never
 * two: the last item of a group reads what the first item of the next group writes.
 */
kernel void next(global int *x)
{
	size_t i = get_global_id(0);
	x[i] = (int)i;
	barrier(CLK_GLOBAL_MEM_FENCE);
	int right = x[(i + 1) % get_global_size(0)];
	x[i] = right;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel next --global 32 --local 8
 * expect: error race read-write global 7 9
 * expect: error race read-write global 10 9
 */
