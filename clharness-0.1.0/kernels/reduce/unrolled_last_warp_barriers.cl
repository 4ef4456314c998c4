/* The last six levels unrolled as in unrolled_last_warp, each followed by a barrier that
 * every item of the work-group reaches: right on any device. The barriers are what the
 * lock-step assumption tried to save. */
kernel void reduce_unrolled_barriers(global const float *in, local float *scratch,
				     global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 32; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	for (size_t s = 32; s > 0; s >>= 1) {
		float other = lid < s ? scratch[lid + s] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < s)
			scratch[lid] += other;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
