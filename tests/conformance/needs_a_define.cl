/* needs_a_define.cl - a tile sized by a macro the application defines when it builds.
 */
kernel void flip(global float *a)
{
	local float tile[TILE];
	size_t lid = get_local_id(0);
	tile[lid] = a[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	a[get_global_id(0)] = tile[TILE - 1 - lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel flip --global 32 --local 16 -D TILE=16
 */
