/* A scan of each item's chunk through a private array sized "big enough for any chunk":
 * 2^20 ints, 4 MiB per work-item. Private memory is registers on a GPU and a slice of a
 * thread's stack on a CPU device; this overflows PoCL's work-item stack, a crash, while
 * a simulator with memory to spare runs it. */
#define MAX_CHUNK (1 << 20)

kernel void scan_chunks(global const int *in, uint chunk, global int *out)
{
	int buf[MAX_CHUNK];
	size_t first = get_global_id(0) * chunk;

	for (uint i = 0; i < chunk; i++)
		buf[i] = in[first + i];
	for (uint i = 1; i < chunk; i++)
		buf[i] += buf[i - 1];
	for (uint i = 0; i < chunk; i++)
		out[first + i] = buf[i];
}
