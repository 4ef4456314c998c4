/* two_d_transpose.cl - a tiled transpose through local memory, in two dimensions.
 */
kernel void t(global const float *in, global float *out)
{
	local float tile[8][9];
	size_t x = get_global_id(0), y = get_global_id(1);
	size_t lx = get_local_id(0), ly = get_local_id(1);
	tile[ly][lx] = in[y * get_global_size(0) + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	size_t ox = get_group_id(1) * 8 + lx, oy = get_group_id(0) * 8 + ly;
	out[oy * get_global_size(1) + ox] = tile[lx][ly];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel t --global 32x32 --local 8x8 --arg '{name: in, buffer: float, count: N * M, init: {random_int: [0, 9]}}' --arg '{name: out, buffer: float, count: N * M}'
 */
