/* reuse_scratch without the barrier between the two uses of its local buffer: item 0
 * reloads scratch[0] for the maximum while other items may still be reading the sum
 * there. Every barrier inside each use is present; the one between them is not. */
kernel void sum_then_max(global const int *in, local int *scratch, global int *sums,
			 global int *maxs)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	int sum = scratch[0];

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] = max(scratch[lid], scratch[lid + s]);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0) {
		sums[get_group_id(0)] = sum;
		maxs[get_group_id(0)] = scratch[0];
	}
}
