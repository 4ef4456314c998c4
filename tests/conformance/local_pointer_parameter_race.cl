/* local_pointer_parameter_race.cl - the reversal through a local parameter without its
 * barrier: an item reads what another writes.
 */
kernel void reverse(global float *x, local float *scratch)
{
	size_t lid = get_local_id(0), n = get_local_size(0);
	scratch[lid] = x[get_global_id(0)];
	x[get_global_id(0)] = scratch[n - 1 - lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel reverse --global 32 --local 8
 * expect: error race read-write local 7 8
 * expect: error uninitialized value-written global 8
 */
