/* Interleaved addressing with a strided index: item lid adds at index 2 s lid, so the
 * adding items are the first ones of the work-group and whole warps fall idle together;
 * the slots they touch are still 2 s apart (bank conflicts in local memory). */
kernel void reduce_interleaved_strided(global const float *in, local float *scratch,
				       global float *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = 1; s < get_local_size(0); s *= 2) {
		size_t index = 2 * s * lid;
		if (index < get_local_size(0))
			scratch[index] += scratch[index + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
