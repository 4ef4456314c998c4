/* second_kernel_of_two.cl - a file of two kernels, the second of them checked; the first
 * would race, and must not be looked at.
 */
kernel void racy(global int *x)
{
	x[0] = get_global_id(0);
}

kernel void clean(global int *x)
{
	x[get_global_id(0)] = get_global_id(0);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel clean --global 16 --local 8 --device pocl,oclgrind
 */
