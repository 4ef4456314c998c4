/* pair_product.cl - each element times its pair's (i ^ 1), used by the harness's own
 * tests of reference kernels. */
__kernel void pair_product(__global const int *in, __global int *out, int n)
{
	size_t i = get_global_id(0);
	out[i] = in[i] * in[i ^ 1];
}

/* Its reference, written plainly: one work-item walks the whole array. */
__kernel void pair_product_serial(__global const int *in, __global int *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = in[i] * in[i ^ 1];
}

/* A reference with a mistake, for the tests of a mismatch. */
__kernel void pair_product_wrong(__global const int *in, __global int *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = in[i] * in[i];
}
