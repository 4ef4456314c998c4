/* Writes each item's index at the position its value names, modulo n: values that
 * collide give two writers to one element. The fix writes at its own position. */
kernel void racy(global const uint *in, global uint *out)
{
	size_t gid = get_global_id(0), n = get_global_size(0);
	out[in[gid] % n] = (uint)gid;
}

kernel void fixed(global const uint *in, global uint *out)
{
	size_t gid = get_global_id(0);
	out[gid] = in[gid];
}
