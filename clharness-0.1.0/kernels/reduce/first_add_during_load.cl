/* Sequential addressing with the first addition done during the load: each item adds two
 * elements L apart as it fills local memory, so a work-group reduces 2 L elements and half
 * as many work-groups are needed. */
kernel void reduce_first_add(global const int *in, local int *scratch, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	size_t i = get_group_id(0) * 2 * size + lid;

	scratch[lid] = in[i] + in[i + size];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = size / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
