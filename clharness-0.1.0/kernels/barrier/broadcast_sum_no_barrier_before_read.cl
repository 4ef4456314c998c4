/* broadcast_sum with its barrier moved to the top of the tree loop, a common rewrite: it
 * still orders the load and every level before the last, but nothing orders item 0's last
 * addition into scratch[0] before the other items read the total. */
kernel void broadcast_sum(global const float *in, local float *scratch, global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < s)
			scratch[lid] += scratch[lid + s];
	}
	out[get_global_id(0)] = scratch[0];
}
