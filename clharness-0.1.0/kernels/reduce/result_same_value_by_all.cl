/* The halving reduction, but every item, not item 0 alone, writes the group's sum,
 * scratch[0], into the group's result slot. All writes store the same value, so every
 * device gives the right sums; OpenCL still calls concurrent writes to one location a
 * data race, so the harness warns about it rather than passing it in silence. */
kernel void reduce_sum_same_write(global const float *in, local float *scratch,
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
	out[get_group_id(0)] = scratch[0];
}
