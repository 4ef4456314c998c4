/* Few work-items, each looping long: cheap on a device, too costly to simulate whole. */
kernel void heavy(global const float *in, global float *out, int n)
{
	size_t i = get_global_id(0);
	float acc = 0;
	for (int k = 0; k < 1500; k++)
		acc += in[(i + k) % n] * 0.5f;
	out[i] = acc;
}
