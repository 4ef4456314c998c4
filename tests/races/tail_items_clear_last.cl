/* Items past n clear the last element, which item n - 1 writes: with n the launch's
 * size no item is past it; with a smaller n, several are. The fix lets items past n do
 * nothing. */
kernel void racy(global const int *in, global int *out, uint n)
{
	size_t gid = get_global_id(0);
	if (gid < n)
		out[gid] = in[gid];
	else if (n > 0)
		out[n - 1] = 0;
}

kernel void fixed(global const int *in, global int *out, uint n)
{
	size_t gid = get_global_id(0);
	if (gid < n)
		out[gid] = in[gid];
}
