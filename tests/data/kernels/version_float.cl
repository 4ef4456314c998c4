/* Writes the OpenCL C version as a float (3 on PoCL, 1.2 on Oclgrind), and a constant
 * every target writes alike: outputs for the three-voice comparison with an
 * application's recorded output (reference: targets, recorded:). */
kernel void version_float(global float *out)
{
	out[get_global_id(0)] = (float)__OPENCL_VERSION__ / 100;
}
kernel void same(global float *out)
{
	out[get_global_id(0)] = 1.5f;
}
