/* Items holding a value past a million record it in one slot: ordinary inputs never
 * reach that, a type's extremes do, and then several items write at once. The fix keeps
 * the largest atomically. */
kernel void racy(global const int *in, global int *flag)
{
	int v = in[get_global_id(0)];
	if (v > 1000000)
		flag[0] = v;
}

kernel void fixed(global const int *in, global int *flag)
{
	int v = in[get_global_id(0)];
	if (v > 1000000)
		atomic_max(&flag[0], v);
}
