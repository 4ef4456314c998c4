/* The neighbour read of a local tile with both fences: right, and the global fence is more
 * than the local data needs (it can cost time on devices that must flush caches). */
kernel void neighbour_local(global const int *in, local int *tile, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);

	tile[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
	out[get_global_id(0)] = tile[(lid + 1) % size];
}
