/* reduction_tree.cl - the tree reduction with its barrier at every level.
 */
kernel void sum(global const int *in, global int *out, local int *s)
{
	size_t lid = get_local_id(0);
	s[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			s[lid] += s[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = s[0];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel sum --global 32 --local 8 --arg '{name: out, buffer: int, count: 4}' --device pocl,oclgrind
 */
