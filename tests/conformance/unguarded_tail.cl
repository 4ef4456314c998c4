/* unguarded_tail.cl - the same launch without the size check: the items past n write past
 * the buffer.
 */
kernel void tail(global float *x, uint n)
{
	size_t i = get_global_id(0);
	x[i] = 2.0f * x[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel tail --global 64 --local 16 --arg '{name: n, scalar: uint, value: N - 8}' --arg '{name: x, buffer: float, count: N - 8}'
 * expect: error out-of-bounds read global 7
 * expect: error out-of-bounds write global 7
 * expect: error uninitialized value-written global 7
 */
