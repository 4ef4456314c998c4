/* x[i] = in[i], then y[i] = x[(i + k) % n], run as one work-group and without a barrier:
 * item i reads the slot item (i + k) % n writes, and nothing orders the two. A read-write
 * race on global memory. */
kernel void shift_one_group(global const float *in, global float *x, global float *y,
			    uint n, uint k)
{
	size_t gid = get_global_id(0);

	x[gid] = in[gid];
	y[gid] = x[(gid + k) % n];
}
