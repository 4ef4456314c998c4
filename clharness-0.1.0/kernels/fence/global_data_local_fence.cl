/* Items of one work-group share a global buffer: each writes its slot, then reads its
 * neighbour's. CLK_LOCAL_MEM_FENCE orders only local memory, so the read of the global slot
 * races with the neighbour's write, though every item stops at the barrier. */
kernel void neighbour_global(global const int *in, global int *shared, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);

	shared[gid] = in[gid];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[gid] = shared[gid - lid + (lid + 1) % size];
}
