/* required_group_size.cl - a kernel that requires its work-group size, launched at it.
 */
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void pairs(global int *x)
{
	size_t i = get_global_id(0);
	x[i] = x[i] + (int)get_local_id(0);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel pairs --global 32 --local 8 --device pocl,oclgrind
 */
