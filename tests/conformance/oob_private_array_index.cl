/* oob_private_array_index.cl - a private array of 4 read at index 4.
 */
kernel void priv(global int *x)
{
	int a[4];
	for (int k = 0; k < 4; k++)
		a[k] = k;
	int n = x[get_global_id(0)] * 0 + 4;
	x[get_global_id(0)] = a[n];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel priv --global 16 --local 4
 * expect: error out-of-bounds index private 9
 * expect: error out-of-bounds read private 9
 * expect: error uninitialized value-written global 9
 */
