/* Group g reads the slot of group g + 2 (mod the groups): with two groups that is its
 * own slot, which its barrier orders; with three it is another group's. The fix reads
 * its own slot. */
kernel void racy(global const int *in, global int *slot, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	size_t groups = get_num_groups(0), group = get_group_id(0);
	slot[group * size + lid] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[get_global_id(0)] = slot[((group + 2) % groups) * size + lid];
}

kernel void fixed(global const int *in, global int *slot, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0), group = get_group_id(0);
	slot[group * size + lid] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[get_global_id(0)] = slot[group * size + lid];
}
