/* Write, barrier, read a neighbour's slot: x[i] = in[i], then y[i] = x[(i + k) % n].
 * The barrier orders the work-items of one work-group only; where (i + k) % n falls in
 * another work-group, that group may not have written it yet. A global-memory race that
 * no barrier can fix. */
kernel void shift_after_barrier(global const float *in, global float *x, global float *y,
				uint n, uint k)
{
	size_t gid = get_global_id(0);

	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	y[gid] = x[(gid + k) % n];
}
