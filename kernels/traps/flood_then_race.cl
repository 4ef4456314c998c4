/* Counts the positive entries of a 64-slot local table that nothing ever fills, so every
 * test branches on an uninitialised value; then each item reads its neighbour's slot of
 * `slot` with no barrier after the neighbour's store, a race. The first work-group alone
 * makes 2048 uninitialised-value reports before its race is reported, past Oclgrind's
 * default budget of 1000 errors; clharness raises the budget and starts every case with
 * all of it (a fresh process, or one whose count was set back), so the race still shows. */
kernel void count_then_peek(global const float *in, local float *table, local float *slot,
			    global float *out, global uint *counts)
{
	size_t i = get_global_id(0), lid = get_local_id(0);
	uint positive = 0;

	for (int k = 0; k < 64; k++)
		if (table[k] > 0)
			positive++;
	slot[lid] = in[i];
	counts[i] = positive + (slot[(lid + 1) % get_local_size(0)] > 0);
	out[i] = in[i];
}
