/* The first group leaves its values in x; the last group reads them after a barrier.
 * With one group the two are the same and the barrier orders them; with two, nothing
 * does. The fix gives each group its own slots. */
kernel void racy(global const int *in, global int *x, global int *out)
{
	size_t lid = get_local_id(0), group = get_group_id(0);
	if (group == 0)
		x[lid] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	if (group == get_num_groups(0) - 1)
		out[get_global_id(0)] = x[lid];
}

kernel void fixed(global const int *in, global int *x, global int *out)
{
	size_t lid = get_local_id(0), gid = get_global_id(0);
	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	out[gid] = x[get_group_id(0) * get_local_size(0) + lid];
}
