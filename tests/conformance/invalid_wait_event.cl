/* invalid_wait_event.cl - the event of a copy waited for twice: the second wait names an
 * event that is no longer one.
 */
kernel void w(global const int *in, global int *out, local int *t)
{
	event_t e = async_work_group_copy(t, in + get_group_id(0) * 8, 8, 0);
	wait_group_events(1, &e);
	wait_group_events(1, &e);
	out[get_global_id(0)] = t[get_local_id(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel w --global 16 --local 8
 * expect: error async-copy invalid-wait-event 8
 */
