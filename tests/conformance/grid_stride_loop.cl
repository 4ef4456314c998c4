/* grid_stride_loop.cl - each item walks the buffer in steps of the whole launch: a
 * buffer longer than the launch, each element an item's own.
 */
kernel void scale(global float *x, uint n)
{
	for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
		x[i] *= 3;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel scale --global 16 --local 8 --arg '{name: x, buffer: float, count: 100}' --arg '{name: n, scalar: uint, value: 100}' --device pocl,oclgrind
 */
