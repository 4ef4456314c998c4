/* The neighbour read of a local tile with only CLK_GLOBAL_MEM_FENCE: every item waits at
 * the barrier, but the fence orders global memory, not the tile, so each read races with
 * the neighbour's write under OpenCL's rules. Devices that flush everything at any barrier
 * hide it. */
kernel void neighbour_local(global const int *in, local int *tile, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);

	tile[lid] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[get_global_id(0)] = tile[(lid + 1) % size];
}
