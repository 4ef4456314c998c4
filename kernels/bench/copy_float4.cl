/* Copies N floats as N / 4 float4s, one a work-item: the streaming bandwidth of the device,
 * bytes read plus bytes written, that clharness bench measures every kernel against. */
kernel void copy_float4(global const float4 *in, global float4 *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}
