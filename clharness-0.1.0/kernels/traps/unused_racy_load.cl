/* Each item stores its value in local memory and, before the barrier, peeks at its
 * neighbour's slot: a read racing with the neighbour's store. The peeked value is never
 * used, so an optimiser deletes the load and the race with it; simulating the program as
 * written keeps both. */
kernel void peek_before_barrier(global const float *in, local float *slot, global float *out)
{
	size_t lid = get_local_id(0);

	slot[lid] = in[get_global_id(0)];
	float peeked = slot[(lid + 1) % get_local_size(0)];
	(void)peeked;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = slot[lid];
}
