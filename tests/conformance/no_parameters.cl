/* no_parameters.cl - a kernel that takes nothing.
 */
kernel void nothing(void)
{
	int x = (int)get_global_id(0);
	(void)x;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel nothing --global 16 --local 4
 */
