/* cl_std_option.cl - a kernel built as its application builds it, with -cl-std=CL1.2 and
 * -cl-mad-enable given as --options.
 */
kernel void axpy(global float *y, global const float *x, float a)
{
	size_t i = get_global_id(0);
	y[i] = mad(a, x[i], y[i]);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel axpy --global 32 --local 8 --options '-cl-std=CL1.2 -cl-mad-enable' --device pocl,oclgrind
 */
