/* A 256-bin histogram of a uchar image: each work-group counts its pixels into a private
 * copy of the bins in local memory with atomic increments (fast: local atomics never leave
 * the compute unit), then adds its copy into the global bins with one atomic add a bin.
 * The barriers order clearing the local bins before counting, and counting before the
 * copy is added. */
kernel void histogram_uchar_local(global const uchar *pixels, global uint *bins,
				  local uint *part)
{
	int lid = get_local_id(0);
	for (int b = lid; b < 256; b += get_local_size(0))
		part[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_inc(&part[pixels[get_global_id(0)]]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int b = lid; b < 256; b += get_local_size(0))
		atomic_add(&bins[b], part[b]);
}
