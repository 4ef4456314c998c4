/* One level of a reduction of any n, launched once per level: kernel launches are the
 * only barrier between work-groups. At level I the elements live at data[j * stride]
 * (stride = L^I, j < count); work-group g sums its L of them, items past count adding 0,
 * and writes the sum over its own first element, data[g * L * stride], which is element
 * g of the next level. Groups read and write disjoint elements, so no launch races. */
kernel void reduce_level(global float *data, uint count, uint stride, local float *scratch)
{
	size_t gid = get_global_id(0);
	size_t lid = get_local_id(0);

	scratch[lid] = gid < count ? data[gid * stride] : 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		data[get_group_id(0) * get_local_size(0) * stride] = scratch[0];
}
