/* The halving reduction, but every item writes the group's one result slot with its own
 * scratch[lid]: only item 0's holds the group's sum, the others hold partial sums, and
 * which write lands last decides the output. A write-write race on global memory. */
kernel void reduce_sum_all_write(global const float *in, local float *scratch,
				 global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	out[get_group_id(0)] = scratch[lid];
}
