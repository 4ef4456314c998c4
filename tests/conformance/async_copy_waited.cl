/* async_copy_waited.cl - the copy waited for, then read: no finding.
 */
kernel void c(global const int *in, global int *out, local int *t)
{
	event_t e = async_work_group_copy(t, in + get_group_id(0) * 8, 8, 0);
	wait_group_events(1, &e);
	out[get_global_id(0)] = t[get_local_id(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel c --global 16 --local 8
 */
