/* Many elements per item: each item first adds, serially, every element a whole grid
 * apart (i, i + G, i + 2 G, ...), then the work-group's tree adds the items' sums. The
 * grid's size no longer follows n, and the same kernel, launched again as one work-group,
 * finishes the partial sums. */
kernel void reduce_grid_stride(global const float *in, uint n, local float *scratch,
			       global float *out)
{
	size_t lid = get_local_id(0);
	float sum = 0.0f;

	for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
		sum += in[i];
	scratch[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
