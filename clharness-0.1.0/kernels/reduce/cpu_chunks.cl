/* The reduction shaped for a CPU: one work-item per compute unit, each summing a
 * contiguous chunk serially, so every core streams through its own cache lines. No local
 * memory and no barriers; the host (or a second launch) adds the partial sums. */
kernel void reduce_chunks(global const float *in, uint n, uint chunk, global float *partials)
{
	size_t id = get_global_id(0);
	size_t begin = id * chunk;
	size_t end = min(begin + chunk, (size_t)n);
	float sum = 0.0f;

	for (size_t i = begin; i < end; i++)
		sum += in[i];
	partials[id] = sum;
}
