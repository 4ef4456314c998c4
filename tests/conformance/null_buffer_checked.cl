/* null_buffer_checked.cl - an optional buffer passed as NULL, which the kernel checks.
 */
kernel void opt(global const float *weights, global float *out)
{
	size_t i = get_global_id(0);
	out[i] = weights ? weights[i] : 1.0f;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel opt --global 16 --local 4 --arg '{name: weights, buffer: null}'
 */
