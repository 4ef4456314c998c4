/* Items exchange through local memory the pair partner's value, the partner lid ^ 1,
 * with no barrier between the write and the read: in groups of one item there is no
 * partner to race with. The fix puts a barrier between them. */
kernel void racy(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	scratch[lid] = in[get_global_id(0)];
	out[get_global_id(0)] = scratch[(lid ^ 1) < size ? lid ^ 1 : lid];
}

kernel void fixed(global const int *in, global int *out, local int *scratch)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = scratch[(lid ^ 1) < size ? lid ^ 1 : lid];
}
