/* Multiply, then reduce with a halving stride: one partial sum per work-group, which the
 * host adds up. */
kernel void dot_product(global const float *a, global const float *b, local float *prods,
			global float *partials)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);

	prods[lid] = a[gid] * b[gid];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			prods[lid] += prods[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partials[get_group_id(0)] = prods[0];
}
