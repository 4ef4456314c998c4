/* uninit_private_variable.cl - a private accumulator that only some items set before
 * it is stored.
 */
kernel void acc(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int total;
	if (in[i] > 0)
		total = in[i];
	out[i] = total;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel acc --global 16 --local 8 --arg '{name: in, buffer: int, count: N, init: {iota: -8}}'
 * expect: error uninitialized value-written global 10
 */
