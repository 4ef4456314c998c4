/* copy_offset.cl - a copy launched with a global offset: ids start at the offset, so
 * item i reads in[i] and writes out[i - offset]. Used by the harness's own tests. */
__kernel void copy_offset(__global const int *in, __global int *out)
{
	size_t i = get_global_id(0);
	out[i - get_global_offset(0)] = in[i];
}
