/* forged_pointer.cl - a kernel that writes through a pointer forged from an integer, to
 * an address no buffer holds: on a CPU device the write lands in, or faults, its worker's
 * memory, and must reach nothing beyond the worker. */
__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		__global int *forged = (__global int *)(ulong)0x10000;
		*forged = arg;
	}
	out[i] = in[i];
}
