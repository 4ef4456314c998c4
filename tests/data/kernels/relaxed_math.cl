/* Built-ins whose results may differ by a few ulp between conforming targets, more so
 * under -cl-fast-relaxed-math. */
kernel void ex(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	out[i] = exp(in[i] * 0.37f) + cos(in[i]) * log(fabs(in[i]) + 1.5f) / sqrt(in[i] * in[i] + 2.0f);
}
