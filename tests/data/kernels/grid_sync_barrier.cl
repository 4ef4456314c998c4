/* A barrier used as if it synchronised the whole grid: each work-group's first item
 * writes the group's slot, all wait at a barrier, then the first item reads the next
 * group's slot. A barrier orders the items of one work-group only, so the read races
 * with the other group's write. */
kernel void grid_sync(global int *slots, global int *out)
{
	size_t g = get_group_id(0), n = get_num_groups(0);
	if (get_local_id(0) == 0)
		slots[g] = (int)g;
	barrier(CLK_GLOBAL_MEM_FENCE);
	if (get_local_id(0) == 0)
		out[g] = slots[(g + 1) % n];
}
