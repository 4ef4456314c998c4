/* The local-memory histogram with a plain increment in place of atomic_inc: two items of
 * a group whose pixels share a bin read the same count and both write it back plus one,
 * losing an update, a race on local memory. */
kernel void histogram_uchar_local_plain(global const uchar *pixels, global uint *bins,
					local uint *part)
{
	int lid = get_local_id(0);
	for (int b = lid; b < 256; b += get_local_size(0))
		part[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	uchar v = pixels[get_global_id(0)];
	part[v] = part[v] + 1;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int b = lid; b < 256; b += get_local_size(0))
		atomic_add(&bins[b], part[b]);
}
