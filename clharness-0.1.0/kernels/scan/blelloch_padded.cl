/* The Blelloch block scan with bank-conflict padding: deep in the up-sweep the items touch
 * slots 2^k apart, which fall in the same local-memory bank on a GPU with 32 banks, and
 * the accesses serialise. One pad slot after every 32 spreads them over the banks. The
 * result is the same scan; only the layout of temp changes. */
#define PADDED(i) ((i) + ((i) >> 5))

kernel void scan_block_padded(global const int *in, global int *out, local int *temp)
{
	size_t lid = get_local_id(0);
	size_t n = 2 * get_local_size(0);
	size_t base = get_group_id(0) * n;
	size_t offset = 1;

	temp[PADDED(2 * lid)] = in[base + 2 * lid];
	temp[PADDED(2 * lid + 1)] = in[base + 2 * lid + 1];
	for (size_t d = n >> 1; d > 0; d >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d)
			temp[PADDED(offset * (2 * lid + 2) - 1)] +=
				temp[PADDED(offset * (2 * lid + 1) - 1)];
		offset <<= 1;
	}
	if (lid == 0)
		temp[PADDED(n - 1)] = 0;
	for (size_t d = 1; d < n; d <<= 1) {
		offset >>= 1;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d) {
			size_t ai = PADDED(offset * (2 * lid + 1) - 1);
			size_t bi = PADDED(offset * (2 * lid + 2) - 1);
			int t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[base + 2 * lid] = temp[PADDED(2 * lid)];
	out[base + 2 * lid + 1] = temp[PADDED(2 * lid + 1)];
}
