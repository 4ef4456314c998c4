/* Right but slow: every item adds its whole work-group's inputs itself, starting at its
 * own element, L times the work of a tree; item 0 writes the sum. */
kernel void reduce_sum(global const int *in, uint n, local int *unused, global int *out)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	size_t first = get_group_id(0) * size;
	int sum = 0;

	for (size_t k = 0; k < size; k++) {
		size_t i = first + (lid + k) % size;
		if (i < n)
			sum += in[i];
	}
	if (lid == 0)
		out[get_group_id(0)] = sum;
}
