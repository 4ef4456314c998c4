/* Scans each block in local memory, but writes neither the prefixes nor the totals out;
 * the other two steps then have nothing to work on. */
kernel void scan_blocks(global const int *in, global int *out, global int *sums, uint n,
			local int *temp)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	size_t base = get_group_id(0) * 2 * size;

	temp[2 * lid] = base + 2 * lid < n ? in[base + 2 * lid] : 0;
	temp[2 * lid + 1] = base + 2 * lid + 1 < n ? in[base + 2 * lid + 1] : 0;
	for (size_t offset = 1; offset < 2 * size; offset <<= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		int a = lid >= offset ? temp[2 * lid - offset] : 0;
		int b = 2 * lid + 1 >= offset ? temp[2 * lid + 1 - offset] : 0;
		barrier(CLK_LOCAL_MEM_FENCE);
		temp[2 * lid] += a;
		temp[2 * lid + 1] += b;
	}
}

kernel void scan_sums(global int *sums, uint count, local int *temp)
{
}

kernel void add_sums(global int *out, global const int *sums, uint n, uint block)
{
}
