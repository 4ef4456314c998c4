/* Minimum and maximum per work-group for any n: the global size is rounded up to whole
 * work-groups, and items past the end contribute the identities (INT_MAX for min, INT_MIN
 * for max), so the last, partial group needs no special case in the tree. */
kernel void minmax(global const int *in, uint n, local int *lo, local int *hi,
		   global int *mins, global int *maxs)
{
	size_t gid = get_global_id(0);
	size_t lid = get_local_id(0);

	lo[lid] = gid < n ? in[gid] : INT_MAX;
	hi[lid] = gid < n ? in[gid] : INT_MIN;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s) {
			lo[lid] = min(lo[lid], lo[lid + s]);
			hi[lid] = max(hi[lid], hi[lid + s]);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0) {
		mins[get_group_id(0)] = lo[0];
		maxs[get_group_id(0)] = hi[0];
	}
}
