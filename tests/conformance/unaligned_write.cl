/* unaligned_write.cl - an int written through a char pointer one byte off.
 */
kernel void u(global char *bytes)
{
	size_t i = get_global_id(0);
	((global int *)(bytes + 1))[i] = (int)i;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel u --global 16 --local 8 --arg '{name: bytes, buffer: char, count: 4 * N + 4}'
 * expect: error out-of-bounds unaligned-write global 6
 */
