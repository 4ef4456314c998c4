/* A write as far past its buffer as the scalar n says: with n = 0 in bounds, otherwise
 * far enough out to crash the driver's process. */
kernel void far(global int *out, int n)
{
	size_t i = get_global_id(0);
	out[i + (size_t)n * 100000000] = 1;
}
