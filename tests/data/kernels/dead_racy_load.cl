/* Each item peeks at its neighbour's element, which the neighbour writes, and drops
 * what it read: a race as written, which an optimiser deletes with the load. */
kernel void copy_after_peek(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int peeked = out[(i + 1) % get_global_size(0)];
	(void)peeked;
	out[i] = in[i];
}
