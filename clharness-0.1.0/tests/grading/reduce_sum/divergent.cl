/* Barrier divergence: the whole body, barriers included, is inside if (gid < n), so in
 * the last work-group the items past the end never reach the barriers the others wait
 * at. */
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	if (gid < n) {
		part[lid] = in[gid];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
			if (lid < stride && gid + stride < n)
				part[lid] += part[lid + stride];
			barrier(CLK_LOCAL_MEM_FENCE);
		}
		if (lid == 0)
			out[get_group_id(0)] = part[0];
	}
}
