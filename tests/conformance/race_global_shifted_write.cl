/* race_global_shifted_write.cl - each item writes its neighbour's element, which the
 * neighbour reads: no barrier orders work-groups, and none is here within one.
 */
kernel void shift(global int *x)
{
	size_t i = get_global_id(0);
	int v = x[i];
	x[(i + 1) % get_global_size(0)] = v + 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel shift --global 32 --local 8
 * expect: error race read-write global 8 7
 */
