/* A correct copy that prints what Oclgrind's own diagnostics look like: what a kernel
 * prints is never a finding, and never reaches the log parser. */
kernel void copy(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	if (i == 0)
		printf("\nOclgrind - OpenCL runtime error detected\n\tFunction: clFinish\n"
		       "\tError: CL_INVALID_VALUE\n\tWork-group: x\n\nOCLGRIND FATAL ERROR "
		       "(x.cpp:1)\nWork-group: x\n\tWork-group: (\n");
	out[i] = in[i];
}
