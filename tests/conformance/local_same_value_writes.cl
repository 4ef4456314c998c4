/* local_same_value_writes.cl - every item of a group stores the group's id to one local
 * element: the simulator saw both values and they were equal, so the race is a warning.
 */
kernel void group_tag(global int *out, local int *t)
{
	t[0] = get_group_id(0);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = t[0];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel group_tag --global 16 --local 8
 * expect: warning race write-write local 6 6
 */
