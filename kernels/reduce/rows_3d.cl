/* A 3-D launch over an N x M x K volume, x fastest in memory: each work-group is a run of
 * L items along x and sums it by a halving tree in local memory. Every id and count takes
 * all three dimensions: the element from the global ids and sizes, the partial's slot from
 * the group ids and the number of groups in each dimension. */
kernel void rows_3d(global const int *in, global int *out, local int *part)
{
	size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
	size_t lid = get_local_id(0);
	part[lid] = in[(z * get_global_size(1) + y) * get_global_size(0) + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) +
		       get_group_id(0);
	if (lid == 0)
		out[group] = part[0];
}
