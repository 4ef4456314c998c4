/* The shift done in place, x[(i + k) % n] = x[i]: item i's write lands on the slot item
 * (i + k) % n reads, in the same step, so some items read a value already shifted.
 * A read-write race on global memory; writing into a second buffer
 * (scatter_to_other_buffer) is the fix. */
kernel void scatter_shift(global const float *in, global float *x, uint n, uint k)
{
	size_t gid = get_global_id(0);

	x[gid] = in[gid];
	float mine = x[gid];
	x[(gid + k) % n] = mine;
}
