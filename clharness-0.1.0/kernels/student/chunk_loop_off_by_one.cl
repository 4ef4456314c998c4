/* Each item sums its own chunk of `chunk` elements, but the loop runs i <= chunk: one
 * element too many. Every item adds the first element of the next item's chunk, and the
 * last item reads one past the end of the buffer. */
kernel void sum_chunks(global const int *in, uint chunk, global int *out)
{
	size_t first = get_global_id(0) * chunk;
	int sum = 0;

	for (uint i = 0; i <= chunk; i++)
		sum += in[first + i];
	out[get_global_id(0)] = sum;
}
