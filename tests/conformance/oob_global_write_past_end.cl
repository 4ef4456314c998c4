/* oob_global_write_past_end.cl - the last item writes one element past the buffer.
 */
kernel void past(global int *x)
{
	x[get_global_id(0) + 1] = 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel past --global 32 --local 8 --arg '{name: x, buffer: int, count: N}'
 * expect: error out-of-bounds write global 5
 */
