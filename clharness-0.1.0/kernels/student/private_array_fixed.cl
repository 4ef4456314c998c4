/* The scan of each item's chunk with a running sum in one register instead of a private
 * array: the fix of private_array_too_large, on any device. */
kernel void scan_chunks(global const int *in, uint chunk, global int *out)
{
	size_t first = get_global_id(0) * chunk;
	int sum = 0;

	for (uint i = 0; i < chunk; i++) {
		sum += in[first + i];
		out[first + i] = sum;
	}
}
