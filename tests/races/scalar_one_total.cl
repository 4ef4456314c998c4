/* With a stride s every item adds its element into slot gid / s: s = 1 gives one slot an
 * item; s = n puts every item into slot 0 at once. The fix adds atomically. */
kernel void racy(global const int *in, global int *out, uint s)
{
	size_t gid = get_global_id(0);
	if (s > 0)
		out[gid / s] += in[gid];
}

kernel void fixed(global const int *in, global int *out, uint s)
{
	size_t gid = get_global_id(0);
	if (s > 0)
		atomic_add(&out[gid / s], in[gid]);
}
