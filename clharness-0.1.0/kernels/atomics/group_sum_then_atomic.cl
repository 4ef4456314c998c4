/* The tree in local memory per work-group, then one atomic_add per work-group into the
 * total: the whole sum in one launch, with G atomic operations instead of N. */
kernel void group_sum_then_atomic(global const int *in, local int *scratch,
				  volatile global int *total)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		atomic_add(total, scratch[0]);
}
