/* broadcast_sum without the barrier inside the tree loop: a level reads partial sums the
 * level before may still be writing, and the last barrier-free level leaves the total
 * unordered with the reads of it as well. */
kernel void broadcast_sum(global const float *in, local float *scratch, global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = scratch[0];
}
