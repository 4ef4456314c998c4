/* Reads the element a whole group back, written by the previous group: with one group
 * nothing lies a group back. The fix reads the input. */
kernel void racy(global const int *in, global int *x, global int *out)
{
	size_t gid = get_global_id(0), size = get_local_size(0);
	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[gid] = gid >= size ? x[gid - size] : 0;
}

kernel void fixed(global const int *in, global int *x, global int *out)
{
	size_t gid = get_global_id(0), size = get_local_size(0);
	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[gid] = gid >= size ? in[gid - size] : 0;
}
