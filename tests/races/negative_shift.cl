/* A signed shift k whose negative values are handled by writing a marker that names the
 * item: only k = -1 takes that path, and every item writes the marker. The fix lets one
 * item write it. */
kernel void racy(global const int *in, global int *out, int k)
{
	size_t gid = get_global_id(0);
	if (k < 0)
		out[0] = -1 - (int)gid;
	else
		out[gid] = in[gid];
}

kernel void fixed(global const int *in, global int *out, int k)
{
	size_t gid = get_global_id(0);
	if (k < 0) {
		if (gid == 0)
			out[0] = -1 - (int)gid;
	} else {
		out[gid] = in[gid];
	}
}
