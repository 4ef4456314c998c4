/* race_local_fixed.cl - the tree sum with its barrier after every step: race-free.
 */
kernel void sum(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel sum --global 64 --local 16
 */
