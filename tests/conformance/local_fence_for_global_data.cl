/* local_fence_for_global_data.cl - items exchange values through global memory across a
 * barrier that fences local memory only: the global writes are not ordered.
 */
kernel void swap(global int *x)
{
	size_t i = get_global_id(0);
	size_t lid = get_local_id(0);
	x[i] = (int)i;
	barrier(CLK_LOCAL_MEM_FENCE);
	int v = x[i ^ 1];
	x[i] = v;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel swap --global 32 --local 8
 * expect: error race read-write global 8 10
 */
