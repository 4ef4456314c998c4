/* A 3 x 3 convolution filter held in constant memory: every item reads the same nine
 * weights in the same order, the access constant memory serves to all items at once, while
 * each reads its own neighbourhood of the image from global memory; cells outside the
 * image count as zero. */
kernel void convolve_constant(global const float *in, global float *out, constant float *filter,
			      int width, int height)
{
	int x = get_global_id(0), y = get_global_id(1);
	float sum = 0;
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < 3; i++) {
			int sx = x + i - 1, sy = y + j - 1;
			if (sx >= 0 && sx < width && sy >= 0 && sy < height)
				sum += filter[j * 3 + i] * in[sy * width + sx];
		}
	out[y * width + x] = sum;
}
