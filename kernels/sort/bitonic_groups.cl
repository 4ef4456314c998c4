/* Sorts each work-group's L consecutive elements in local memory with a bitonic network:
 * log2(L) * (log2(L) + 1) / 2 stages of compare-exchanges between items lid and lid ^ j,
 * with a barrier after every stage, since each stage reads pairs the one before wrote. L
 * must be a power of two; n and group are for the reference kernel, which walks the
 * array alone. */
kernel void bitonic_groups(global const int *in, global int *out, local int *v, int n,
			   int group)
{
	int lid = get_local_id(0), size = get_local_size(0);
	v[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int k = 2; k <= size; k *= 2) {
		for (int j = k / 2; j > 0; j /= 2) {
			int partner = lid ^ j;
			if (partner > lid) {
				bool ascending = (lid & k) == 0;
				int a = v[lid], b = v[partner];
				if ((a > b) == ascending) {
					v[lid] = b;
					v[partner] = a;
				}
			}
			barrier(CLK_LOCAL_MEM_FENCE);
		}
	}
	out[get_global_id(0)] = v[lid];
}

/* The reference, written plainly: one item sorts each group's elements in turn by
 * insertion, no local memory, no barrier. */
kernel void sort_groups_serial(global const int *in, global int *out, local int *v, int n,
			       int group)
{
	for (int base = 0; base < n; base += group) {
		for (int i = 0; i < group; i++) {
			int x = in[base + i], j = i;
			for (; j > 0 && out[base + j - 1] > x; j--)
				out[base + j] = out[base + j - 1];
			out[base + j] = x;
		}
	}
}
