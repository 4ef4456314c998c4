/* broadcast_sum without the barrier after the load: the first level of the tree adds
 * scratch[lid + s], which another item may not have loaded yet. */
kernel void broadcast_sum(global const float *in, local float *scratch, global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	out[get_global_id(0)] = scratch[0];
}
