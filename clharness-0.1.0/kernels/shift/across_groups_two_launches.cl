/* The shifted read made safe by splitting it into two launches: the end of the first
 * launch orders every write before any read of the second, across all work-groups. */
kernel void copy(global const float *in, global float *x)
{
	x[get_global_id(0)] = in[get_global_id(0)];
}

kernel void shift(global const float *x, global float *y, uint n, uint k)
{
	size_t gid = get_global_id(0);

	y[gid] = x[(gid + k) % n];
}
