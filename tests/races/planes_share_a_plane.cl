/* A 3-D work-group stages one plane, indexed by x and y: with one plane a group each slot
 * has one writer, with two planes two. The fix indexes by plane too. */
kernel void racy(global const int *in, global int *out, local int *block)
{
	size_t x = get_local_id(0), y = get_local_id(1), w = get_local_size(0);
	size_t at = (get_global_id(2) * get_global_size(1) + get_global_id(1)) *
			    get_global_size(0) +
		    get_global_id(0);
	block[y * w + x] = in[at];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[at] = block[y * w + x];
}

kernel void fixed(global const int *in, global int *out, local int *block)
{
	size_t x = get_local_id(0), y = get_local_id(1), z = get_local_id(2);
	size_t w = get_local_size(0), h = get_local_size(1);
	size_t at = (get_global_id(2) * get_global_size(1) + get_global_id(1)) *
			    get_global_size(0) +
		    get_global_id(0);
	block[(z * h + y) * w + x] = in[at];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[at] = block[(z * h + y) * w + x];
}
