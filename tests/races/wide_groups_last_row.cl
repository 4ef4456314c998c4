/* Items of the last column of a 2-D group write the group's row total: with one column a
 * group, each row has one writer per slot; with more, the slot is per group in x only,
 * shared by the rows. The fix gives each row its slot. */
kernel void racy(global const int *in, global int *out)
{
	size_t w = get_global_size(0);
	size_t col = get_global_id(0), row = get_global_id(1);
	if (get_local_id(0) == get_local_size(0) - 1)
		out[get_group_id(0)] = in[row * w + col];
}

kernel void fixed(global const int *in, global int *out)
{
	size_t w = get_global_size(0);
	size_t col = get_global_id(0), row = get_global_id(1);
	if (get_local_id(0) == get_local_size(0) - 1)
		out[row * get_num_groups(0) + get_group_id(0)] = in[row * w + col];
}
