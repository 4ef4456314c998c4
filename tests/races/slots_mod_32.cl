/* Local slots taken modulo 32: unique in groups of up to 32 items, shared beyond. The fix
 * gives each item its own slot. */
kernel void racy(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid % 32] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = scratch[lid % 32];
}

kernel void fixed(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = scratch[lid];
}
