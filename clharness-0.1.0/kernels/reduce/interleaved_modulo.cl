/* The first tree reduction of the classic optimisation sequence: interleaved addressing,
 * the adding items picked by lid % (2 s) == 0. Right, but the modulo test leaves the
 * adding items scattered across the work-group, so on a GPU every warp stays busy with a
 * few active lanes, and % is slow. */
kernel void reduce_interleaved_modulo(global const int *in, local int *scratch,
				      global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = 1; s < size; s *= 2) {
		if (lid % (2 * s) == 0)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
