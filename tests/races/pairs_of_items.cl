/* Item 0 of each group writes partial[gid / 2]: with groups of two or more, gid is even
 * there and the slots differ; with groups of one item, items 0 and 1 share a slot. The
 * fix indexes by group. */
kernel void racy(global const int *in, global int *partial)
{
	size_t gid = get_global_id(0);
	if (get_local_id(0) == 0)
		partial[gid / 2] = in[gid];
}

kernel void fixed(global const int *in, global int *partial)
{
	size_t gid = get_global_id(0);
	if (get_local_id(0) == 0)
		partial[get_group_id(0)] = in[gid];
}
