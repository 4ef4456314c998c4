/* The neighbour read of a global buffer shared within a work-group, with both fences:
 * right; the local fence is more than the global data needs. */
kernel void neighbour_global(global const int *in, global int *shared, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);

	shared[gid] = in[gid];
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
	out[gid] = shared[gid - lid + (lid + 1) % size];
}
