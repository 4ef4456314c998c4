/* async_copy_across_groups.cl - each group copies the next group's part of data into
 * its tile while that group writes it: a race between work-groups, at the copy's line,
 * which no barrier or wait can order.
 */
kernel void neighbour(global float *data, local float *tile)
{
	size_t g = get_group_id(0), n = get_local_size(0);
	size_t next = ((g + 1) % get_num_groups(0)) * n;
	event_t e = async_work_group_copy(tile, data + next, n, 0);
	wait_group_events(1, &e);
	data[get_global_id(0)] = tile[get_local_id(0)] + 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel neighbour --global 64 --local 16 --arg '{name: tile, local: float, count: L}'
 * expect: error race read-write global 11 9
 * message: the async copy at line 9 is one work-group's and the access at line 11 another's, and neither a barrier nor a wait orders work-groups
 */
