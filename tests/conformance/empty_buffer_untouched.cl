/* empty_buffer_untouched.cl - a buffer of no elements, which the kernel leaves alone.
 */
kernel void skip(global int *extra, global int *out, uint n_extra)
{
	size_t i = get_global_id(0);
	out[i] = n_extra > 0 ? extra[0] : 7;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel skip --global 16 --local 4 --arg '{name: extra, buffer: int, count: 0}' --arg '{name: n_extra, scalar: uint, value: 0}'
 */
