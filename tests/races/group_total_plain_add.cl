/* Each work-group's first item adds its element into one total: one group alone writes
 * it once, two groups race to read, add and write. The fix adds atomically. */
kernel void racy(global const int *in, global int *total)
{
	if (get_local_id(0) == 0)
		total[0] += in[get_global_id(0)];
}

kernel void fixed(global const int *in, global int *total)
{
	if (get_local_id(0) == 0)
		atomic_add(&total[0], in[get_global_id(0)]);
}
