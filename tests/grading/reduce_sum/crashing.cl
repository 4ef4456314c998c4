/* Crashes a CPU device: the sum goes to out[gid * n * n * n] instead of out[group], so far
 * past the end of the output, for every work-group but the first, that no memory is
 * mapped there at any size (out[gid * n] landed in the driver's own memory at N=1024 in
 * some runs, so which run crashed first varied). */
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	part[lid] = gid < n ? in[gid] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[gid * n * n * n] = part[0];
}
