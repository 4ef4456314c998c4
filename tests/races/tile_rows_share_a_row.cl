/* A 2-D work-group stages one row of its tile, indexed by x alone: with one row a group
 * each slot has one writer, with two rows two. The fix indexes by row too. */
kernel void racy(global const int *in, global int *out, local int *tile)
{
	size_t x = get_local_id(0), w = get_local_size(0);
	size_t at = get_global_id(1) * get_global_size(0) + get_global_id(0);
	tile[x] = in[at];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[at] = tile[(x + 1) % w];
}

kernel void fixed(global const int *in, global int *out, local int *tile)
{
	size_t x = get_local_id(0), y = get_local_id(1), w = get_local_size(0);
	size_t at = get_global_id(1) * get_global_size(0) + get_global_id(0);
	tile[y * w + x] = in[at];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[at] = tile[y * w + (x + 1) % w];
}
