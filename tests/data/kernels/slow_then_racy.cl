/* Loops long enough per work-item that Oclgrind needs far longer than a device for the
 * launch a user gives, then writes its neighbour's element: a race a smaller launch shows
 * as well. */
kernel void slow(global int *a)
{
	size_t i = get_global_id(0);
	int s = 0;
	for (int k = 0; k < 20000; k++)
		s += k * (int)i;
	a[(i + 1) % get_global_size(0)] = s;
	a[i] += 1;
}
