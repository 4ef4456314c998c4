/* image_parameter_refused.cl - an image, which no buffer the harness makes can be: refused
 * at the parameter's own line, saying what to write instead.
 */
kernel void blur(read_only image2d_t picture,
		 global float4 *out)
{
	const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;
	int i = get_global_id(0);
	out[i] = read_imagef(picture, s, (int2)(i, 0));
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel blur --global 16 --local 4
 * exit: 2
 * message: image_parameter_refused.cl:4:38: error: parameter 1 of blur (image2d_t picture) is an image
 * message: rewrite the kernel over a buffer of its pixels
 */
