/* copy2d.cl - a correct 2-D copy, row-major, used by the harness's own tests. */
__kernel void copy2d(__global const int *in, __global int *out, int width)
{
	size_t i = get_global_id(1) * width + get_global_id(0);
	out[i] = in[i];
}
