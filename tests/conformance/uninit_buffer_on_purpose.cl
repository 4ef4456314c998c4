/* uninit_buffer_on_purpose.cl - a buffer left uninitialised on purpose (init: none) is
 * read before anything writes it.
 */
kernel void use(global int *scratch, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = scratch[i] + 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel use --global 32 --local 8 --arg '{name: scratch, buffer: int, count: N, init: none}'
 * expect: error uninitialized value-written global 7
 */
