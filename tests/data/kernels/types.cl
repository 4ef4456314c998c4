/* types.cl - kernels over OpenCL C's other element types, used by the harness's own tests. */
__kernel void copy_char3(__global const char3 *in, __global char3 *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}

__kernel void copy_ushort16(__global const ushort16 *in, __global ushort16 *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}

__kernel void copy_long2(__global const long2 *in, __global long2 *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
}

/* Half as storage: vload_half and vstore_half need no cl_khr_fp16. */
__kernel void copy_half(__global const half *in, __global half *out)
{
	size_t i = get_global_id(0);
	vstore_half(vload_half(i, in), i, out);
}

/* One int4 sum per work-group, lane by lane, as a tree in local memory. */
__kernel void sum_int4(__global const int4 *in, __global int4 *out, __local int4 *part)
{
	size_t lid = get_local_id(0);
	part[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}

/* One float per work-group: every lane of its float4 elements added. */
__kernel void sum_float4_lanes(__global const float4 *in, __global float *out,
			       __local float *part)
{
	size_t lid = get_local_id(0);
	float4 v = in[get_global_id(0)];
	part[lid] = (v.x + v.y) + (v.z + v.w);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}

/* A scalar argument of a vector type: every lane of it the case's value. */
__kernel void add_uchar4(__global const uchar4 *in, __global uchar4 *out, uchar4 k)
{
	size_t i = get_global_id(0);
	out[i] = in[i] + k;
}
