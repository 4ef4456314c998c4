/* guarded_tail.cl - a size check keeps the items past n from touching the buffer: no
 * finding, even with n half a group short of the launch.
 */
kernel void tail(global float *x, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		x[i] = 2.0f * x[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel tail --global 64 --local 16 --arg '{name: n, scalar: uint, value: N - 8}' --arg '{name: x, buffer: float, count: N - 8}'
 */
