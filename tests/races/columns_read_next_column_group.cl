/* In 2-D, each item reads the element one column right after a barrier: across groups
 * in x nothing orders it. With one group in x, the last column reads nothing. The fix
 * reads the input. */
kernel void racy(global const int *in, global int *x, global int *out)
{
	size_t w = get_global_size(0);
	size_t col = get_global_id(0), row = get_global_id(1);
	x[row * w + col] = in[row * w + col];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[row * w + col] = col + 1 < w ? x[row * w + col + 1] : 0;
}

kernel void fixed(global const int *in, global int *x, global int *out)
{
	size_t w = get_global_size(0);
	size_t col = get_global_id(0), row = get_global_id(1);
	x[row * w + col] = in[row * w + col];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[row * w + col] = col + 1 < w ? in[row * w + col + 1] : 0;
}
