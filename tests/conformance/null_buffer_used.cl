/* null_buffer_used.cl - a NULL buffer read without a check.
 */
kernel void opt(global const float *weights, global float *out)
{
	size_t i = get_global_id(0);
	out[i] = weights[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel opt --global 16 --local 4 --device oclgrind --arg '{name: weights, buffer: null}'
 * expect: error out-of-bounds read global 6
 * expect: error uninitialized value-written global 6
 */
