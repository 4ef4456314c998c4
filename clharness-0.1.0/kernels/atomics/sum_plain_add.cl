/* The one-counter sum with a plain += : each item reads the total, adds, and writes it
 * back, and two items that read the same old total lose one of their additions. A race on
 * global memory, read-write and write-write. */
kernel void sum_plain(global const int *in, global int *total)
{
	*total += in[get_global_id(0)];
}
