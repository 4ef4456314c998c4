/* Counts the values below minus a million without an atomic: only extreme inputs take
 * the branch, and then the count is a lost update. The fix counts atomically. */
kernel void racy(global const int *in, global int *count)
{
	if (in[get_global_id(0)] < -1000000)
		count[0] = count[0] + 1;
}

kernel void fixed(global const int *in, global int *count)
{
	if (in[get_global_id(0)] < -1000000)
		atomic_inc(&count[0]);
}
