/* The Hillis-Steele inclusive scan made race-free by double buffering: each step reads
 * one local buffer and writes the other, and a barrier separates the steps, so no slot
 * is read and written in the same step. */
kernel void scan_double_buffered(global const int *in, global int *out, local int *a,
				 local int *b)
{
	size_t lid = get_local_id(0);
	local int *src = a;
	local int *dst = b;

	src[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t offset = 1; offset < get_local_size(0); offset <<= 1) {
		dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];
		barrier(CLK_LOCAL_MEM_FENCE);
		local int *t = src;
		src = dst;
		dst = t;
	}
	out[get_global_id(0)] = src[lid];
}
