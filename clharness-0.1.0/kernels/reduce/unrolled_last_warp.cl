/* The classic unrolled last warp: once 32 items remain, the tree goes on without barriers,
 * counting on the 32 lanes of a warp running in lock-step and on volatile to keep each
 * value in memory. OpenCL promises neither lock-step nor warps: the six steps race, as
 * Oclgrind shows, and a CPU device that runs one item after another gets the wrong sums.
 * (Newer GPUs broke the assumption too: CUDA needs __syncwarp there.) */
kernel void reduce_unrolled_warp(global const float *in, local float *scratch,
				 global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 32; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid < 32) {
		volatile local float *v = scratch;
		v[lid] += v[lid + 32];
		v[lid] += v[lid + 16];
		v[lid] += v[lid + 8];
		v[lid] += v[lid + 4];
		v[lid] += v[lid + 2];
		v[lid] += v[lid + 1];
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
