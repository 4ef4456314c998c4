/* Tree reduction in local memory with a halving stride: at each level the lower half of
 * the active items adds the upper half, so active items stay contiguous. One sum per
 * work-group. The work-group size must be a power of two. */
kernel void reduce_sum(global const float *in, local float *scratch, global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		/* The next level reads what this one wrote. */
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
