/* Races: the catalogue's scan of any n without the barrier at each level of the
 * down-sweep, so an item reads slots of temp[] that other items wrote a level before. */

/* Step 1: Blelloch scan of one block (elements past n count as 0), written inclusive,
 * and the block's total in sums[group]. */
kernel void scan_blocks(global const int *in, global int *out, global int *sums, uint n,
			local int *temp)
{
	size_t lid = get_local_id(0);
	size_t len = 2 * get_local_size(0);
	size_t base = get_group_id(0) * len;
	size_t i0 = base + 2 * lid, i1 = i0 + 1;
	int x0 = i0 < n ? in[i0] : 0;
	int x1 = i1 < n ? in[i1] : 0;
	size_t offset = 1;

	temp[2 * lid] = x0;
	temp[2 * lid + 1] = x1;
	for (size_t d = len >> 1; d > 0; d >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < d)
			temp[offset * (2 * lid + 2) - 1] += temp[offset * (2 * lid + 1) - 1];
		offset <<= 1;
	}
	if (lid == 0) {
		sums[get_group_id(0)] = temp[len - 1];
		temp[len - 1] = 0;
	}
	for (size_t d = 1; d < len; d <<= 1) {
		offset >>= 1;
		if (lid < d) {
			size_t ai = offset * (2 * lid + 1) - 1;
			size_t bi = offset * (2 * lid + 2) - 1;
			int t = temp[ai];
			temp[ai] = temp[bi];
			temp[bi] += t;
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (i0 < n)
		out[i0] = temp[2 * lid] + x0;
	if (i1 < n)
		out[i1] = temp[2 * lid + 1] + x1;
}

/* Step 2: one work-group turns the block totals into exclusive prefixes, a tile of L at
 * a time, carrying the running total between tiles. Hillis-Steele with a barrier
 * between every read and write, since items read their neighbours' slots. */
kernel void scan_sums(global int *sums, uint count, local int *temp)
{
	size_t lid = get_local_id(0);
	size_t size = get_local_size(0);
	int carry = 0;

	for (size_t tile = 0; tile < count; tile += size) {
		int x = tile + lid < count ? sums[tile + lid] : 0;
		temp[lid] = x;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (size_t offset = 1; offset < size; offset <<= 1) {
			int add = lid >= offset ? temp[lid - offset] : 0;
			barrier(CLK_LOCAL_MEM_FENCE);
			temp[lid] += add;
			barrier(CLK_LOCAL_MEM_FENCE);
		}
		if (tile + lid < count)
			sums[tile + lid] = carry + temp[lid] - x;
		carry += temp[size - 1];
		/* The next tile overwrites temp, which every item has just read. */
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}

/* Step 3: every element adds the prefix of the blocks before its own. */
kernel void add_sums(global int *out, global const int *sums, uint n, uint block)
{
	size_t gid = get_global_id(0);

	if (gid < n)
		out[gid] += sums[gid / block];
}
