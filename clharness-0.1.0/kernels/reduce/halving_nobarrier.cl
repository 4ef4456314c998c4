/* The halving-stride reduction with the barrier inside the tree loop removed: an item
 * may read scratch[lid + s] before its partner has added into it, or after the partner
 * moved on. A data race on local memory; the output is wrong whenever items of a
 * work-group do not run in lock-step. */
kernel void reduce_sum_nobarrier(global const float *in, local float *scratch,
				 global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
