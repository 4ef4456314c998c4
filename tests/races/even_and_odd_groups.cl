/* Group g writes slot g % 2: two groups use two slots, three share one. The fix uses one
 * slot a group. */
kernel void racy(global const int *in, global int *slot)
{
	if (get_local_id(0) == 0)
		slot[get_group_id(0) % 2] = in[get_global_id(0)];
}

kernel void fixed(global const int *in, global int *slot)
{
	if (get_local_id(0) == 0)
		slot[get_group_id(0)] = in[get_global_id(0)];
}
