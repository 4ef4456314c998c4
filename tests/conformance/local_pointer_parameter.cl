/* local_pointer_parameter.cl - local memory passed as a parameter, sized by the harness
 * to a work-group, reversed within the group behind a barrier.
 */
kernel void reverse(global float *x, local float *scratch)
{
	size_t lid = get_local_id(0), n = get_local_size(0);
	scratch[lid] = x[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = scratch[n - 1 - lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel reverse --global 32 --local 8 --device pocl,oclgrind
 */
