/* Items with an odd value swap it with their neighbour's: two odd neighbours touch one
 * element each from both sides. Zeros and even values leave everything alone. The fix
 * writes only its own element. */
kernel void racy(global int *x)
{
	size_t gid = get_global_id(0), n = get_global_size(0);
	int v = x[gid];
	if (v & 1) {
		x[gid] = x[(gid + 1) % n];
		x[(gid + 1) % n] = v;
	}
}

kernel void fixed(global int *x)
{
	size_t gid = get_global_id(0);
	int v = x[gid];
	if (v & 1)
		x[gid] = v - 1;
}
