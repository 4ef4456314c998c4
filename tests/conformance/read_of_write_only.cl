/* read_of_write_only.cl - a kernel that reads a buffer the host created write-only.
 */
kernel void r(global int *out)
{
	size_t i = get_global_id(0);
	out[i] = out[i] + 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel r --global 16 --local 4 --arg '{name: out, buffer: int, count: N, access: write-only}'
 * expect: error out-of-bounds read-from-write-only global 6
 */
