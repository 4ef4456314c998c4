/* Each item sums its own chunk of `chunk` elements: i runs from 0 to chunk - 1, the fix of
 * chunk_loop_off_by_one. */
kernel void sum_chunks(global const int *in, uint chunk, global int *out)
{
	size_t first = get_global_id(0) * chunk;
	int sum = 0;

	for (uint i = 0; i < chunk; i++)
		sum += in[first + i];
	out[get_global_id(0)] = sum;
}
