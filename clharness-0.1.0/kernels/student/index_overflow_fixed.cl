/* The copy with its index in size_t, the type get_global_id returns: no wrap at any size
 * a device can launch. */
kernel void copy(global const int *in, global int *out, uint n)
{
	size_t i = get_global_id(0);

	if (i < n)
		out[i] = in[i];
}
