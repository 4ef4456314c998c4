/* Adds each work-group's products in local memory, right, but never writes the partial
 * sum out. */
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
}
