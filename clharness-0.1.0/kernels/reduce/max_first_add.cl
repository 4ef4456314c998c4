/* The maximum of each 2 L elements, float, with the first comparison during the load: the
 * same tree as the sums with fmax for +. Exact on any inputs (without NaN), since the
 * maximum does not round. */
kernel void reduce_max_first_add(global const float *in, local float *scratch,
				 global float *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	size_t i = get_group_id(0) * 2 * size + lid;

	scratch[lid] = fmax(in[i], in[i + size]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = size / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] = fmax(scratch[lid], scratch[lid + s]);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
