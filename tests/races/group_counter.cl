/* Counts the work-groups with a plain increment by each group's first item: a lost
 * update once there are two groups. The fix counts atomically. */
kernel void racy(global int *groups)
{
	if (get_local_id(0) == 0)
		groups[0]++;
}

kernel void fixed(global int *groups)
{
	if (get_local_id(0) == 0)
		atomic_inc(&groups[0]);
}
