/* Work-efficient exclusive scan of one block of 2L elements (Blelloch): an up-sweep
 * builds partial sums in a balanced tree in place, the root is cleared, and a down-sweep
 * passes prefixes back down. Each of the L items handles two elements; every level
 * reads what the level before wrote, so every level starts with a barrier. */
kernel void scan_block(global const float *in, global float *out, local float *temp)
{
	size_t lid = get_local_id(0);
	size_t n = 2 * get_local_size(0);
	size_t base = get_group_id(0) * n;
	size_t offset = 1;

	temp[2 * lid] = in[base + 2 * lid];
	temp[2 * lid + 1] = in[base + 2 * lid + 1];
	for (size_t d = n >> 1; d > 0; d >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d) {
			size_t ai = offset * (2 * lid + 1) - 1;
			size_t bi = offset * (2 * lid + 2) - 1;
			temp[bi] += temp[ai];
		}
		offset <<= 1;
	}
	if (lid == 0)
		temp[n - 1] = 0.0f;
	for (size_t d = 1; d < n; d <<= 1) {
		offset >>= 1;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d) {
			size_t ai = offset * (2 * lid + 1) - 1;
			size_t bi = offset * (2 * lid + 2) - 1;
			float t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[base + 2 * lid] = temp[2 * lid];
	out[base + 2 * lid + 1] = temp[2 * lid + 1];
}
