/* Writes the first n elements of a, however many work-items run: a kernel that takes its
 * size, so a launch can end in a ragged work-group. */
kernel void guarded(global float *a, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		a[i] = 1.0f;
}
