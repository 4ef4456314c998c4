/* doubles.cl - each element twice its input, for check's --expect. */
kernel void twice(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i] * 2;
}
