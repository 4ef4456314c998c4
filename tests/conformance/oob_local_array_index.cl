/* oob_local_array_index.cl - a local array of 8 indexed by a 16-item work-group.
 */
kernel void tile(global int *x)
{
	local int t[8];
	size_t lid = get_local_id(0);
	if (lid < 8)
		t[lid] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	t[lid] += 1;
	barrier(CLK_LOCAL_MEM_FENCE);
	x[get_global_id(0)] = t[lid % 8];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel tile --global 32 --local 16
 * expect: error out-of-bounds index local 10
 * expect: error out-of-bounds read local 10
 * expect: error out-of-bounds write local 10
 * expect: error uninitialized value-written local 10
 */
