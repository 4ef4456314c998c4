/* A tree in local memory whose barrier sits outside the loop: with groups of two the
 * tree has one level and nothing to order; from four items up, a level reads what the
 * last one wrote. The fix puts the barrier in the loop. */
kernel void racy(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1)
		if (lid < s)
			scratch[lid] += scratch[lid + s];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}

kernel void fixed(global const int *in, global int *out, local int *scratch)
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
		out[get_group_id(0)] = scratch[0];
}
