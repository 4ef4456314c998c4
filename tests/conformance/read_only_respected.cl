/* read_only_respected.cl - buffers created read-only and write-only, used as made.
 */
kernel void copy(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel copy --global 16 --local 4 --arg '{name: in, buffer: int, count: N, access: read-only}' --arg '{name: out, buffer: int, count: N, access: write-only}'
 */
