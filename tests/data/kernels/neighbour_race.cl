/* Reads its neighbour's element while the neighbour writes it: a race a case may mean to
 * keep, for the suppression tests. */
kernel void neighbour(global const int *in, global int *x)
{
	size_t gid = get_global_id(0);
	int seen = x[(gid + 1) % get_global_size(0)];
	x[gid] = in[gid] + seen * 0;
}
