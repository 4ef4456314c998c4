/* oob_local_parameter_write.cl - a local parameter a work-group long, written one past
 * its end by the last item.
 */
kernel void spread(global float *x, local float *t)
{
	size_t lid = get_local_id(0);
	t[lid + 1] = x[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = lid ? t[lid] : 0;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel spread --global 16 --local 8 --arg '{name: t, local: float, count: L}'
 * expect: error out-of-bounds write local 7
 */
