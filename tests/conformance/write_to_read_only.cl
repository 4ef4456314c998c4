/* write_to_read_only.cl - a kernel that writes a buffer the host created read-only.
 */
kernel void w(global int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
	in[i] = 0;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel w --global 16 --local 4 --arg '{name: in, buffer: int, count: N, access: read-only}'
 * expect: error out-of-bounds write-to-read-only global 7
 */
