/* vload_any_offset.cl - vload4 at an offset of one element, which vload allows: no
 * finding.
 */
kernel void v(global const float *in, global float4 *out)
{
	size_t i = get_global_id(0);
	out[i] = vload4(i, in + 1);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel v --global 16 --local 8 --arg '{name: in, buffer: float, count: 4 * N + 1}'
 */
