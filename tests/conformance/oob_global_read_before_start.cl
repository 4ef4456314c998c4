/* oob_global_read_before_start.cl - the first item reads the element before the buffer.
 */
kernel void before(global const int *in, global int *out)
{
	int i = (int)get_global_id(0);
	out[i] = in[i - 1];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel before --global 32 --local 8
 * expect: error out-of-bounds read global 6
 * expect: error uninitialized value-written global 6
 */
