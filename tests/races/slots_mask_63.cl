/* Local slots masked to 64: a group of 128 items or more has two items a slot. The fix
 * masks nothing. */
kernel void racy(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid & 63] = in[get_global_id(0)] + 1;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid < 64)
		out[get_global_id(0)] = scratch[lid];
}

kernel void fixed(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0);
	scratch[lid] = in[get_global_id(0)] + 1;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid < 64)
		out[get_global_id(0)] = scratch[lid];
}
