/* local_atomic_histogram.cl - a histogram counted with atomics in local memory, then
 * added to the global one with atomics: no race.
 */
kernel void histogram(global const uchar *in, global uint *bins, local uint *counts)
{
	size_t lid = get_local_id(0);
	if (lid < 16)
		counts[lid] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_inc(&counts[in[get_global_id(0)] % 16]);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid < 16)
		atomic_add(&bins[lid], counts[lid]);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel histogram --global 64 --local 16 --arg '{name: bins, buffer: uint, count: 16, init: {fill: 0}}' --device pocl,oclgrind
 */
