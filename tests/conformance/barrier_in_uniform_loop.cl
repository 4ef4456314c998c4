/* barrier_in_uniform_loop.cl - a barrier in a loop whose trip count is a kernel argument:
 * every item passes it equally often.
 */
kernel void rounds(global int *x, local int *t, uint n)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	t[lid] = x[get_global_id(0)];
	for (uint r = 0; r < n % 4; r++) {
		barrier(CLK_LOCAL_MEM_FENCE);
		int v = t[(lid + 1) % size];
		barrier(CLK_LOCAL_MEM_FENCE);
		t[lid] = v;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = t[lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel rounds --global 16 --local 8 --device pocl,oclgrind
 */
