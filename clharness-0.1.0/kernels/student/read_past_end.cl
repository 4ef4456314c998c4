/* A reduction launched on n rounded up to a multiple of the work-group size, with no
 * bounds check at all: the items past the end of the last work-group read past the end of
 * the input buffer. */
kernel void reduce_sum(global const int *in, uint n, local int *scratch, global int *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
