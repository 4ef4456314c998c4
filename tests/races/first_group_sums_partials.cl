/* Each group leaves a partial; group 0 then adds them all after a barrier, which does
 * not wait for the other groups. With one group there is nothing to wait for. The fix
 * leaves the adding to a second launch (here: each group keeps its own partial). */
kernel void racy(global const int *in, global int *partial, global int *total)
{
	size_t lid = get_local_id(0), group = get_group_id(0);
	if (lid == 0)
		partial[group] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	if (group == 0 && lid == 0) {
		int sum = 0;
		for (size_t g = 0; g < get_num_groups(0); g++)
			sum += partial[g];
		total[0] = sum;
	}
}

kernel void fixed(global const int *in, global int *partial, global int *total)
{
	size_t lid = get_local_id(0), group = get_group_id(0);
	if (lid == 0)
		partial[group] = in[get_global_id(0)];
	barrier(CLK_GLOBAL_MEM_FENCE);
	if (lid == 0)
		total[group] = partial[group];
}
