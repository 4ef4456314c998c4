/* A right reduction that enables clang's function pointers and calls through one: a call
 * through a pointer runs whatever code lies at its address, so it is refused. */
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable

int identity(int x) { return x; }

kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);
	int (*load)(int) = identity;

	part[lid] = gid < n ? load(in[gid]) : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
