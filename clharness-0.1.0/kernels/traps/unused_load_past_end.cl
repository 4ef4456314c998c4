/* A copy that loads in[i + 1] for a look-ahead it never uses: the last item reads one
 * element past the end of `in`. The value goes nowhere, so an optimiser deletes the load,
 * and the bug with it, before a simulator sees it; clharness simulates programs built
 * with -cl-opt-disable. */
kernel void copy_with_lookahead(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	float next = in[i + 1];

	(void)next;
	out[i] = in[i];
}
