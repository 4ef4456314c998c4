/* Does nothing: no element is written. */
kernel void transpose_tiled(global const float *in, global float *out, int width, int height,
			    local float *tile)
{
}
