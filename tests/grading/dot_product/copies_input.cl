/* Copies each work-group's first product to its slot instead of adding the group's. */
kernel void dot_product(global const float *a, global const float *b, local float *prods,
			global float *partials)
{
	size_t gid = get_global_id(0);

	if (get_local_id(0) == 0)
		partials[get_group_id(0)] = a[gid] * b[gid];
}
