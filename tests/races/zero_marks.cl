/* Items whose input is zero mark one slot with their index: random inputs hold few
 * zeros, all-zero inputs many. The fix keeps the largest index atomically. */
kernel void racy(global const int *in, global int *mark)
{
	if (in[get_global_id(0)] == 0)
		mark[0] = (int)get_global_id(0);
}

kernel void fixed(global const int *in, global int *mark)
{
	if (in[get_global_id(0)] == 0)
		atomic_max(&mark[0], (int)get_global_id(0));
}
