/* barrier_after_early_return.cl - items past the data return before the barrier the
 * others wait at; the neighbours that returned leave their local elements unwritten.
 */
kernel void shift(global float *x, local float *t, uint n)
{
	size_t lid = get_local_id(0), i = get_global_id(0);
	if (i >= n)
		return;
	t[lid] = x[i];
	barrier(CLK_LOCAL_MEM_FENCE);
	x[i] = t[(lid + 1) % get_local_size(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel shift --global 16 --local 8 --arg '{name: n, scalar: uint, value: 12}'
 * expect: error barrier-divergence barrier 10
 * expect: error uninitialized value-written global 11
 */
