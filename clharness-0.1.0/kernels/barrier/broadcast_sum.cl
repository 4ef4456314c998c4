/* Every item writes its work-group's sum, as a kernel that normalises by a group total
 * would. Three barriers, each where one is needed: after the load into local memory,
 * after each level of the tree, and before every item reads the total that item 0 wrote
 * last. The cases beside this one each remove one of them. */
kernel void broadcast_sum(global const float *in, local float *scratch, global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	out[get_global_id(0)] = scratch[0];
}
