/* local_read_before_start.cl - each item reads its left neighbour's local element, and
 * item 0 reads the one before the array: an index past the array, a read outside local
 * memory, and the value it read stored as uninitialised.
 */
kernel void left(global int *x)
{
	local int t[8];
	size_t lid = get_local_id(0);
	t[lid] = x[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = t[lid - 1];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel left --global 16 --local 8
 * expect: error out-of-bounds index local 11
 * expect: error out-of-bounds read local 11
 * expect: error uninitialized value-written global 11
 */
