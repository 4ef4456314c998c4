/* A 5-point stencil through local memory: each work-group loads its tile and a halo one
 * element wide around it (the neighbours its edge items need), cells outside the grid as
 * zero, waits at a barrier, then adds each cell and its four neighbours from the tile. */
kernel void stencil5_halo(global const float *in, global float *out, int width, int height,
			  local float *tile)
{
	int lx = get_local_id(0), ly = get_local_id(1);
	int wide = get_local_size(0) + 2, tall = get_local_size(1) + 2;
	/* The group's items load the (L + 2) x (LY + 2) cells in strides of the group. */
	for (int j = ly; j < tall; j += get_local_size(1))
		for (int i = lx; i < wide; i += get_local_size(0)) {
			int x = get_group_id(0) * get_local_size(0) + i - 1;
			int y = get_group_id(1) * get_local_size(1) + j - 1;
			bool inside = x >= 0 && x < width && y >= 0 && y < height;
			tile[j * wide + i] = inside ? in[y * width + x] : 0;
		}
	barrier(CLK_LOCAL_MEM_FENCE);
	int c = (ly + 1) * wide + lx + 1;
	out[get_global_id(1) * width + get_global_id(0)] =
		tile[c] + tile[c - 1] + tile[c + 1] + tile[c - wide] + tile[c + wide];
}
