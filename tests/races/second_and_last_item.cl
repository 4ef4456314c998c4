/* Item 1 and the last item of each group both write the group's result: in groups of
 * two they are one item, in larger groups two. The fix lets the last item alone write. */
kernel void racy(global const int *in, global int *out)
{
	size_t lid = get_local_id(0), group = get_group_id(0);
	if (lid == 1)
		out[group] = in[get_global_id(0)];
	if (lid == get_local_size(0) - 1)
		out[group] = -in[get_global_id(0)];
}

kernel void fixed(global const int *in, global int *out)
{
	size_t lid = get_local_id(0), group = get_group_id(0);
	if (lid == get_local_size(0) - 1)
		out[group] = -in[get_global_id(0)];
}
