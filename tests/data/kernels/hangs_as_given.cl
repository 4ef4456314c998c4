/* Spins forever at the launch of 64 items and ends at any other: the launch as given
 * hangs though the sweep's smaller ones end. */
kernel void spin(global int *out)
{
	size_t i = get_global_id(0);
	while (get_global_size(0) == 64)
		out[i] += 1;
	out[i] = 1;
}
