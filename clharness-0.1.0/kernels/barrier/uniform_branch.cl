/* Barriers inside both arms of an if: legal, because the condition is a kernel argument,
 * the same for every item, so all items of a work-group reach the same barriers. A
 * condition on the local id would not be (reduce/guarded_barriers). */
kernel void sum_or_max(global const int *in, int want_max, local int *scratch,
		       global int *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (want_max) {
		for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
			if (lid < s)
				scratch[lid] = max(scratch[lid], scratch[lid + s]);
			barrier(CLK_LOCAL_MEM_FENCE);
		}
	} else {
		for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
			if (lid < s)
				scratch[lid] += scratch[lid + s];
			barrier(CLK_LOCAL_MEM_FENCE);
		}
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
