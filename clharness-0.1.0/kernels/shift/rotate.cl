/* A rotated copy, y[i] = x[(i + k) % n], from one buffer into another: every item reads
 * only the input and writes only its own output slot, so any order of items and
 * work-groups gives the same result. */
kernel void rotate_copy(global const float *x, global float *y, uint n, uint k)
{
	size_t gid = get_global_id(0);

	if (gid < n)
		y[gid] = x[(gid + k) % n];
}
