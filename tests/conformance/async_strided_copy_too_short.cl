/* async_strided_copy_too_short.cl - a strided copy of four elements into a local array
 * that eight items then read: the last four were never written. The rerun with the copy
 * written out as loads and stores finds them too, so the finding stays an error.
 */
kernel void c(global const int *in, global int *out)
{
	local int t[8];
	event_t e = async_work_group_strided_copy(t, in + get_group_id(0) * 16, 4, 2, 0);
	wait_group_events(1, &e);
	out[get_global_id(0)] = t[get_local_id(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel c --global 16 --local 8 --arg '{name: in, buffer: int, count: 2 * N, init: {iota: 0}}'
 * expect: error uninitialized value-written global 10
 */
