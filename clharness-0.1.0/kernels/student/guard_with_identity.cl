/* The fix of read_past_end and unset_local_last_group: every item of the last work-group
 * fills its slot, the ones past the end with 0, the identity of +, and every item still
 * reaches every barrier. */
kernel void reduce_sum(global const int *in, uint n, local int *scratch, global int *out)
{
	size_t i = get_global_id(0), lid = get_local_id(0);

	scratch[lid] = i < n ? in[i] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
