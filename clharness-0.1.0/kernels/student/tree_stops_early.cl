/* The halving tree with its loop condition s > 1 instead of s > 0: the last level, which
 * adds scratch[1] into scratch[0], never runs. No race and no bad access; the sums are
 * simply wrong, on every device, every time. */
kernel void reduce_sum(global const int *in, local int *scratch, global int *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 1; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
