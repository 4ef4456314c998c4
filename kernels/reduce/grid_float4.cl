/* The grid-stride reduction made fast: each item loads float4s (four floats a load) a
 * whole grid apart, so neighbouring items read neighbouring vectors and every load is
 * coalesced, and keeps four running sums, one a lane; the grid is sized to the device (a
 * few work-groups a compute unit), not to n, so each item adds many vectors and the tree
 * in local memory runs once per work-group. One partial per work-group; the second
 * kernel, launched as one work-group, adds them. */
kernel void reduce_grid_float4(global const float4 *in, uint n4, local float *scratch,
			       global float *partials)
{
	size_t lid = get_local_id(0);
	float4 acc = (float4)(0.0f);
	for (size_t i = get_global_id(0); i < n4; i += get_global_size(0))
		acc += in[i];
	scratch[lid] = (acc.x + acc.y) + (acc.z + acc.w);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partials[get_group_id(0)] = scratch[0];
}

/* Adds `count` partial sums as one work-group: a stride of the group, then its tree. */
kernel void reduce_partials(global const float *partials, uint count, local float *scratch,
			    global float *total)
{
	size_t lid = get_local_id(0);
	float sum = 0.0f;
	for (size_t i = lid; i < count; i += get_local_size(0))
		sum += partials[i];
	scratch[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		total[0] = scratch[0];
}
