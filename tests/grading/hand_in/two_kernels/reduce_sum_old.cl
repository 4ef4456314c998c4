/* Races: the barriers fence global memory, but the tree shares local memory, so nothing
 * orders one level's writes to part[] before the next level's reads. Some devices give
 * the right sums anyway; the simulator does not let it pass. */
kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	part[lid] = gid < n ? in[gid] : 0;
	barrier(CLK_GLOBAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_GLOBAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
