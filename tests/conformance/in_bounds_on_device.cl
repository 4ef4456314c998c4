/* in_bounds_on_device.cl - every item writes its own element and its mirror's read:
 * nothing past either end, on the device or the simulator.
 */
kernel void mirror(global const int *in, global int *out)
{
	size_t i = get_global_id(0), n = get_global_size(0);
	out[i] = in[n - 1 - i];
}

/* What tests/conformance_judge runs and expects:
 * check: --device pocl,oclgrind --kernel mirror --global 1024 --local 64
 */
