/* A right reduction that also writes through a pointer forged from an integer, to an
 * address no buffer holds: no inline assembly, so it builds; on a CPU device the write
 * faults its worker, which costs this submission its runs and no one else anything. */
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	if (gid == 0)
		*(global int *)(ulong)0x10000 = (int)n;
	part[lid] = gid < n ? in[gid] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
