/* The sum and the maximum of each work-group through one local buffer, used twice. Every
 * item keeps the sum it reads from scratch[0]; the barrier between the two uses keeps
 * item 0's reload of scratch[0] from overwriting the sum before the others have read it. */
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
	barrier(CLK_LOCAL_MEM_FENCE);

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
