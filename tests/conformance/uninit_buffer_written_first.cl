/* uninit_buffer_written_first.cl - the uninitialised buffer written before it is read:
 * nothing to report.
 */
kernel void use(global int *scratch, global int *out)
{
	size_t i = get_global_id(0);
	scratch[i] = (int)i;
	out[i] = scratch[i] + 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel use --global 32 --local 8 --arg '{name: scratch, buffer: int, count: N, init: none}'
 */
