/* The shift written the other way, y[(i + k) % n] = x[i]: each item reads the slot it
 * wrote itself and writes a slot no other item writes, since i -> (i + k) % n is a
 * permutation. No barrier is needed, within or across work-groups. */
kernel void scatter_shift(global const float *in, global float *x, global float *y, uint n,
			  uint k)
{
	size_t gid = get_global_id(0);

	x[gid] = in[gid];
	y[(gid + k) % n] = x[gid];
}
