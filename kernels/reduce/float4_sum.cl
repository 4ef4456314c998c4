/* A reduction of float4 vectors: each item loads one float4 and the group adds them in a
 * halving tree in local memory, four lanes at once; one float4 sum per work-group, each
 * lane the sum of its own lane, which the reference computes lane by lane. */
kernel void float4_sum(global const float4 *in, global float4 *out, local float4 *part)
{
	int lid = get_local_id(0);
	part[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
