/* Hillis-Steele inclusive scan done in place in one local buffer: at each step item i
 * adds x[i - offset] while item i - offset may already have added into it. A read-write
 * race on local memory that the barrier at the end of each step cannot prevent, since
 * the conflicting read and write happen within one step. */
kernel void scan_inplace(global const int *in, global int *out, local int *x)
{
	size_t lid = get_local_id(0);

	x[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t offset = 1; offset < get_local_size(0); offset <<= 1) {
		if (lid >= offset)
			x[lid] += x[lid - offset];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	out[get_global_id(0)] = x[lid];
}
