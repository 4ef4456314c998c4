/* A tree whose loop ends for each item as soon as it stops adding, lid < s being the loop
 * condition: item 0 runs log2(L) iterations, items in the upper half none, so each barrier
 * in the loop is reached by some items of the work-group and not others. That is barrier
 * divergence, undefined in OpenCL. The fix keeps every item in the loop and moves the
 * test inside it (reduce/halving). */
kernel void reduce_exit_early(global const int *in, local int *scratch, global int *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; lid < s; s >>= 1) {
		scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
