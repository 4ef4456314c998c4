/* vector_and_fraction_scalars.cl - a float4 scalar with a value a lane and a float of 0.5;
 * the kernel faults on any other value, so a lane or a fraction lost is a finding.
 */
kernel void s(global float *out, float4 v, float f)
{
	size_t i = get_global_id(0);
	int wrong = v.x != 1.0f || v.y != 2.0f || v.z != 3.5f || v.w != 4.0f || f != 0.5f;
	out[i + (wrong ? 1000000 : 0)] = v.x + f;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel s --global 16 --local 4 --arg '{name: v, scalar: float4, value: [1, 2, 3.5, 4]}' --arg '{name: f, scalar: float, value: 0.5}'
 */
