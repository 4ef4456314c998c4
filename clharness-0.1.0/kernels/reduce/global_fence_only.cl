/* The halving reduction with barrier(CLK_GLOBAL_MEM_FENCE) where its local-memory tree
 * needs CLK_LOCAL_MEM_FENCE. Every item still stops at each barrier, and devices that make
 * local memory visible at any barrier give the right sums; but the fence orders only
 * global memory, so under OpenCL's rules each level's reads of scratch race with the
 * writes of the level before. */
kernel void reduce_sum_global_fence(global const float *in, local float *scratch,
				    global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_GLOBAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
