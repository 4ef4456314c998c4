/* Does not compile: `half` is a type in OpenCL C, so it cannot name a variable. */
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	part[lid] = gid < n ? in[gid] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t half = get_local_size(0) / 2; half > 0; half /= 2) {
		if (lid < half)
			part[lid] += part[lid + half];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
