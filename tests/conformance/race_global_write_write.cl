/* race_global_write_write.cl - pairs of items write their own ids to one element.
 */
kernel void pairs(global int *x)
{
	size_t i = get_global_id(0);
	x[i / 2] = (int)i;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel pairs --global 32 --local 8
 * expect: error race write-write global 6 6
 */
