/* Writes the OpenCL C version its compiler reports: a legal kernel whose output differs
 * from one device to another, for the harness's own tests of output comparison. */
kernel void device_version(global int *out)
{
	out[get_global_id(0)] = __OPENCL_VERSION__;
}
