/* uninit_local_read.cl - each item reads a local element no item wrote.
 */
kernel void gap(global int *x, local int *t)
{
	size_t lid = get_local_id(0);
	if (lid % 2 == 0)
		t[lid] = 1;
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = t[lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel gap --global 32 --local 8
 * expect: error uninitialized value-written global 9
 */
