/* bool_flags.cl - a buffer of bools, which the language allows behind a pointer: bytes
 * holding 0 or 1, flipped in place.
 */
kernel void flip(global bool *flags)
{
	size_t i = get_global_id(0);
	flags[i] = !flags[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel flip --global 32 --local 8 --device pocl,oclgrind
 */
