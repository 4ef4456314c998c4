/* mem_fence_is_no_barrier.cl - a mem_fence orders one item's own accesses; it does not
 * wait for the others, so the neighbour's value may not be there yet.
 */
kernel void neighbour(global float *x, local float *t)
{
	size_t lid = get_local_id(0);
	t[lid] = x[get_global_id(0)];
	mem_fence(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = t[(lid + 1) % get_local_size(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel neighbour --global 16 --local 8
 * expect: error race read-write local 7 9
 * expect: error uninitialized value-written global 9
 */
