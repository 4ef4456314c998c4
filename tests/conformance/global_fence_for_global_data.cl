/* global_fence_for_global_data.cl - the exchange with a global fence, and the second write
 * to another buffer: race-free.
 */
kernel void swap(global int *x, global int *y)
{
	size_t i = get_global_id(0);
	x[i] = (int)i;
	barrier(CLK_GLOBAL_MEM_FENCE);
	y[i] = x[i ^ 1];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel swap --global 32 --local 8
 */
