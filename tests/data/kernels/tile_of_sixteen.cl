/* tile_of_sixteen.cl - a kernel whose local tile is sized for work-groups of 16: larger
 * ones would run past it, which the application never launches. */
#define TILE 16
kernel void tiled(global const float *in, global float *out)
{
	local float tile[TILE];
	size_t lid = get_local_id(0);
	tile[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tile[TILE - 1 - lid];
}
