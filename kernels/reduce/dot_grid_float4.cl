/* The fast dot product: the shape of reduce/grid_float4 with a product a lane. Each item
 * loads float4s of both arrays a whole grid apart, so neighbouring items read
 * neighbouring vectors and every load is coalesced, and keeps four running sums of
 * products, one a lane; the grid is sized to the device, not to n, so the tree in local
 * memory runs once per work-group. One partial per work-group; the second kernel,
 * launched as one work-group, adds them. */
kernel void dot_grid_float4(global const float4 *a, global const float4 *b, uint n4,
			    local float *scratch, global float *partials)
{
	size_t lid = get_local_id(0);
	float4 acc = (float4)(0.0f);
	for (size_t i = get_global_id(0); i < n4; i += get_global_size(0))
		acc += a[i] * b[i];
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
