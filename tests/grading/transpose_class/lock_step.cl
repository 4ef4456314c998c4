/* Skips the barrier in work-groups of 32 items or fewer, as if they ran in lock-step. */
kernel void transpose_tiled(global const float *in, global float *out, int width, int height,
			    local float *tile)
{
	int side = get_local_size(0);
	int lx = get_local_id(0), ly = get_local_id(1);
	tile[ly * (side + 1) + lx] = in[get_global_id(1) * width + get_global_id(0)];
	if (get_local_size(0) * get_local_size(1) > 32)
		barrier(CLK_LOCAL_MEM_FENCE);
	/* The output tile sits at the input tile's place mirrored across the diagonal. */
	int x = get_group_id(1) * side + lx;
	int y = get_group_id(0) * side + ly;
	out[y * height + x] = tile[lx * (side + 1) + ly];
}
