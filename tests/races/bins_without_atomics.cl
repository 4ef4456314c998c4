/* A histogram, one bin an item's worth of buffer, incremented without atomics: two items
 * whose values fall in one bin lose an update. The fix increments atomically. */
kernel void racy(global const int *in, global int *bins)
{
	uint b = (uint)in[get_global_id(0)] % (uint)get_global_size(0);
	bins[b] = bins[b] + 1;
}

kernel void fixed(global const int *in, global int *bins)
{
	atomic_inc(&bins[(uint)in[get_global_id(0)] % (uint)get_global_size(0)]);
}
