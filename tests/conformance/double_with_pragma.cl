/* double_with_pragma.cl - double arithmetic behind the cl_khr_fp64 pragma.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void halve(global double *x)
{
	size_t i = get_global_id(0);
	x[i] = x[i] * 0.5;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel halve --global 32 --local 8 --device pocl,oclgrind
 */
