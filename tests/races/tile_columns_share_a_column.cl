/* A 2-D work-group stages one column, indexed by y alone: with one column a group each
 * slot has one writer, with two columns two. The fix indexes by column too. */
kernel void racy(global const int *in, global int *out, local int *tile)
{
	size_t y = get_local_id(1), h = get_local_size(1);
	size_t at = get_global_id(1) * get_global_size(0) + get_global_id(0);
	tile[y] = in[at];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[at] = tile[(y + 1) % h];
}

kernel void fixed(global const int *in, global int *out, local int *tile)
{
	size_t x = get_local_id(0), y = get_local_id(1), h = get_local_size(1);
	size_t at = get_global_id(1) * get_global_size(0) + get_global_id(0);
	tile[x * h + y] = in[at];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[at] = tile[x * h + (y + 1) % h];
}
