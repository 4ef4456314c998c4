/* unaligned_read.cl - an int read through a char pointer one byte off: an unaligned read,
 * an error.
 */
kernel void u(global char *bytes, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = ((global int *)(bytes + 1))[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel u --global 16 --local 8 --arg '{name: bytes, buffer: char, count: 4 * N + 4}'
 * expect: error out-of-bounds unaligned-read global 7
 */
