/* sampler_parameter_refused.cl - a sampler passed in, which the harness cannot make:
 * refused at its own line.
 */
kernel void copy(global const float *in,
		 sampler_t s,
		 global float *out)
{
	int i = get_global_id(0);
	out[i] = in[i];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel copy --global 16 --local 4
 * exit: 2
 * message: sampler_parameter_refused.cl:5:14: error: parameter 2 of copy (sampler_t s) is a sampler
 */
