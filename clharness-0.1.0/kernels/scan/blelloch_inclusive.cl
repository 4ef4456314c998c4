/* An inclusive scan from the Blelloch exclusive one: after the down-sweep each slot holds
 * the sum of the elements before it, so adding the element itself, kept from the load,
 * gives the sum up to and including it. */
kernel void scan_block_inclusive(global const int *in, global int *out, local int *temp)
{
	size_t lid = get_local_id(0);
	size_t n = 2 * get_local_size(0);
	size_t base = get_group_id(0) * n;
	size_t offset = 1;
	int first = in[base + 2 * lid], second = in[base + 2 * lid + 1];

	temp[2 * lid] = first;
	temp[2 * lid + 1] = second;
	for (size_t d = n >> 1; d > 0; d >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d)
			temp[offset * (2 * lid + 2) - 1] += temp[offset * (2 * lid + 1) - 1];
		offset <<= 1;
	}
	if (lid == 0)
		temp[n - 1] = 0;
	for (size_t d = 1; d < n; d <<= 1) {
		offset >>= 1;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d) {
			size_t ai = offset * (2 * lid + 1) - 1;
			size_t bi = offset * (2 * lid + 2) - 1;
			int t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[base + 2 * lid] = temp[2 * lid] + first;
	out[base + 2 * lid + 1] = temp[2 * lid + 1] + second;
}
