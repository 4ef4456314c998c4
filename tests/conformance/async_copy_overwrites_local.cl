/* async_copy_overwrites_local.cl - items write the local tile, then the group copies
 * into it with no barrier between: a race with the copy, at the copy's own line.
 */
kernel void c(global const int *in, global int *out, local int *t)
{
	size_t lid = get_local_id(0);
	t[lid] = 5;
	event_t e = async_work_group_copy(t, in + get_group_id(0) * 8, 8, 0);
	wait_group_events(1, &e);
	out[get_global_id(0)] = t[lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel c --global 16 --local 8
 * expect: error race write-write local 7 8
 */
