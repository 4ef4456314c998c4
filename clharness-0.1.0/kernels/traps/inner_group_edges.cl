/* x[i] = in[i], a barrier, then y[i] = x[i + 1], the last item reading its own slot. The
 * barrier orders the items of one work-group; at the edge between two groups nothing
 * does. Only edges between neighbouring groups race, none involving the first and last
 * group together, so simulating those two alone (Oclgrind's quick mode, which clharness
 * never uses) misses every one. */
kernel void shift_clamped(global const float *in, global float *x, global float *y, uint n)
{
	size_t i = get_global_id(0);

	x[i] = in[i];
	barrier(CLK_GLOBAL_MEM_FENCE);
	y[i] = x[i + 1 < n ? i + 1 : i];
}
