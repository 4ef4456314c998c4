/* Forgets the barrier between filling the tile and reading it back transposed. */
kernel void transpose_tiled(global const float *in, global float *out, int width, int height,
			    local float *tile)
{
	int side = get_local_size(0);
	int lx = get_local_id(0), ly = get_local_id(1);
	tile[ly * (side + 1) + lx] = in[get_global_id(1) * width + get_global_id(0)];
	/* The output tile sits at the input tile's place mirrored across the diagonal. */
	int x = get_group_id(1) * side + lx;
	int y = get_group_id(0) * side + ly;
	out[y * height + x] = tile[lx * (side + 1) + ly];
}
