/* write_before_start_on_device.cl - one item writes two elements before the buffer's
 * start: caught by the simulator at its line, and by the guard zone before the buffer on
 * PoCL.
 */
kernel void under(global int *out)
{
	size_t i = get_global_id(0);
	out[i] = (int)i;
	if (i == 0)
		out[(int)i - 2] = 7;
}

/* What tests/conformance_judge runs and expects:
 * check: --device pocl,oclgrind --kernel under --global 256 --local 64
 * expect: error out-of-bounds write global 10
 * expect: error out-of-bounds write-before-the-start-of-out global
 */
