/* Reads the element its right-hand neighbour wrote, after a barrier. A barrier orders the
 * items of one work-group only: at the natural launch, one group, all is ordered; with
 * two groups the last item of one reads what the first of the next writes. The fix reads
 * the input, which no item writes. */
kernel void racy(global const int *in, global int *x, global int *out)
{
	size_t gid = get_global_id(0);
	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[gid] = x[(gid + 1) % get_global_size(0)];
}

kernel void fixed(global const int *in, global int *x, global int *out)
{
	size_t gid = get_global_id(0);
	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[gid] = in[(gid + 1) % get_global_size(0)];
}
