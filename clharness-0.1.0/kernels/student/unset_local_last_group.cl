/* A reduction for any n that guards its load with if (i < n) but loads nothing otherwise:
 * in the last work-group the slots of the items past the end keep whatever local memory
 * held, and the tree adds them in. */
kernel void reduce_sum(global const int *in, uint n, local int *scratch, global int *out)
{
	size_t i = get_global_id(0), lid = get_local_id(0);

	if (i < n)
		scratch[lid] = in[i];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
