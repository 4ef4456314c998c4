/* A work-group sum whose tree starts on the values its neighbours load, with no barrier
 * between the loads and the first level: the level reads part[lid + s] that another item
 * may not have written yet. */
kernel void sum_missing_barrier(global const float *in, local float *part, global float *out)
{
	size_t lid = get_local_id(0);
	part[lid] = in[get_global_id(0)];
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
