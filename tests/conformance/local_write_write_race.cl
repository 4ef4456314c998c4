/* local_write_write_race.cl - every item of a group stores its own id to one local
 * element: different values, so the race is an error.
 */
kernel void last_writer(global int *out, local int *t)
{
	t[0] = get_local_id(0);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = t[0];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel last_writer --global 16 --local 8
 * expect: error race write-write local 6 6
 */
