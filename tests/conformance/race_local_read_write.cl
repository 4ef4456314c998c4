/* race_local_read_write.cl - a tree sum without the barrier between its steps: a work-item
 * reads the element its neighbour writes in the same step.
 */
kernel void sum(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s /= 2)
		if (lid < s)
			scratch[lid] += scratch[lid + s];
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel sum --global 64 --local 16
 * expect: error race read-write local 11 11
 */
