/* In 2-D, each item reads the element one row down after a barrier: inside a group the
 * barrier orders it, across groups in y it does not. With one group in y, the last row
 * reads nothing. The fix reads the input. */
kernel void racy(global const int *in, global int *x, global int *out)
{
	size_t w = get_global_size(0), h = get_global_size(1);
	size_t col = get_global_id(0), row = get_global_id(1);
	x[row * w + col] = in[row * w + col];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[row * w + col] = row + 1 < h ? x[(row + 1) * w + col] : 0;
}

kernel void fixed(global const int *in, global int *x, global int *out)
{
	size_t w = get_global_size(0), h = get_global_size(1);
	size_t col = get_global_id(0), row = get_global_id(1);
	x[row * w + col] = in[row * w + col];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[row * w + col] = row + 1 < h ? in[(row + 1) * w + col] : 0;
}
