/* far_past_end.cl - a kernel that writes a gigabyte past the end of its output buffer, a
 * pointer no check of the buffer's own bounds stops on a CPU device: it must reach nothing
 * beyond its worker. */
__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0)
		out[(1ul << 28) + (ulong)arg] = arg;
	out[i] = in[i];
}
