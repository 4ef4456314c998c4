/* The shift within a local tile: y[(lid + 1) % L] = in[i], a barrier, then out[i] = y[lid].
 * Each item reads the slot its left neighbour wrote; the barrier orders the write before
 * the read. */
kernel void local_scatter(global const int *in, local int *y, global int *out)
{
	size_t lid = get_local_id(0);

	y[(lid + 1) % get_local_size(0)] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = y[lid];
}
