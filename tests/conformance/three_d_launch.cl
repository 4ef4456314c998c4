/* three_d_launch.cl - a launch in three dimensions, each item its own element of a
 * buffer of one element a work-item.
 */
kernel void index3(global int *out)
{
	size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
	size_t w = get_global_size(0), h = get_global_size(1);
	out[(z * h + y) * w + x] = (int)(x + 10 * y + 100 * z);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel index3 --global 8x4x2 --local 4x2x2 --device pocl,oclgrind
 */
