/* A write as far past its buffer as the scalar spread says: with spread = 0 in bounds, otherwise
 * far enough out to crash the driver's process. */
kernel void far(global int *out, int spread)
{
	size_t i = get_global_id(0);
	out[i + (size_t)spread * 100000000] = 1;
}
