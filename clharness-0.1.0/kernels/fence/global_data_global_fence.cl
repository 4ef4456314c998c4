/* The neighbour read of a global buffer shared within a work-group, with
 * CLK_GLOBAL_MEM_FENCE: the barrier orders global memory among the items of one
 * work-group, which is all this needs. (No barrier orders work-groups: shift/.) */
kernel void neighbour_global(global const int *in, global int *shared, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);

	shared[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[gid] = shared[gid - lid + (lid + 1) % size];
}
