/* Reads out of bounds: every item loads in[gid] before asking whether gid < n, so in the
 * last work-group the items past the end read past the input. The value is thrown away,
 * so the sums are right; the read is still an error. */
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	int x = in[gid];
	part[lid] = gid < n ? x : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
