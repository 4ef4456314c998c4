/* Where an item and its neighbour hold the same value, it records its index in one slot;
 * random values rarely agree, repeated small ones often. The fix keeps the smallest
 * index atomically. */
kernel void racy(global const int *in, global int *where)
{
	size_t gid = get_global_id(0), n = get_global_size(0);
	if (in[gid] == in[(gid + 1) % n])
		where[0] = (int)gid;
}

kernel void fixed(global const int *in, global int *where)
{
	size_t gid = get_global_id(0), n = get_global_size(0);
	if (in[gid] == in[(gid + 1) % n])
		atomic_min(&where[0], (int)gid);
}
