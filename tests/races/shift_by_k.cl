/* Reads the element k places on, written by another item in the same launch: with k a
 * multiple of n (k = n, k = 0) every item reads its own; with k = 1 a neighbour's. The
 * fix reads the input. */
kernel void racy(global const int *in, global int *x, global int *out, uint k)
{
	size_t gid = get_global_id(0), n = get_global_size(0);
	x[gid] = in[gid];
	out[gid] = x[(gid + k) % n];
}

kernel void fixed(global const int *in, global int *x, global int *out, uint k)
{
	size_t gid = get_global_id(0), n = get_global_size(0);
	x[gid] = in[gid];
	out[gid] = in[(gid + k) % n];
}
