/* write_past_end_on_device.cl - one item writes three elements past the buffer, at a
 * thousand items: the simulator places it at its line, and on PoCL the guard zone around
 * the buffer catches it, named with how far it went, where a driver would crash or pass.
 */
kernel void over(global int *out, int n)
{
	size_t i = get_global_id(0);
	out[i] = (int)i;
	if (i == 0)
		out[n + 3] = 7;
}

/* What tests/conformance_judge runs and expects:
 * check: --device pocl,oclgrind --kernel over --global 1024 --local 64 --arg '{name: n, scalar: int, value: N}' --arg '{name: out, buffer: int, count: N}'
 * expect: error out-of-bounds write global 10
 * expect: error out-of-bounds write-past-the-end-of-out global
 */
