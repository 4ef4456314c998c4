/* The shift within a local tile without the barrier: item lid reads y[lid], which its left
 * neighbour writes in the same step. A read-write race on local memory. */
kernel void local_scatter(global const int *in, local int *y, global int *out)
{
	size_t lid = get_local_id(0);

	y[(lid + 1) % get_local_size(0)] = in[get_global_id(0)];
	out[get_global_id(0)] = y[lid];
}
