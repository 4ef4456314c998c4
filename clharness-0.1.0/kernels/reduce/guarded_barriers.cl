/* A reduction for any n that guards its whole body with if (i < n), barriers and all: in
 * the last work-group the items past the end skip the barriers the others wait at. Every
 * item of a work-group must reach each barrier, so this is undefined (a hang on some
 * devices) even where the sums come out right. minmax_guarded shows the fix: every item
 * takes part, and the ones past the end bring the operation's identity. */
kernel void reduce_sum_guarded(global const float *in, uint n, local float *scratch,
			       global float *out)
{
	size_t i = get_global_id(0), lid = get_local_id(0);

	if (i < n) {
		scratch[lid] = in[i];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
			if (lid < s && i + s < n)
				scratch[lid] += scratch[lid + s];
			barrier(CLK_LOCAL_MEM_FENCE);
		}
		if (lid == 0)
			out[get_group_id(0)] = scratch[0];
	}
}
