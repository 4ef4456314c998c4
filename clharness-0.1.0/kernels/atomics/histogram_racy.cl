/* A histogram by plain increments: two items whose values fall in the same bin read the
 * same count and both write it back plus one, losing an update. The race depends on the
 * data: values that are all different never collide. */
kernel void histogram_racy(global const uint *values, global uint *bins)
{
	uint v = values[get_global_id(0)];
	bins[v] = bins[v] + 1;
}
