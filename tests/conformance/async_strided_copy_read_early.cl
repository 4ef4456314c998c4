/* async_strided_copy_read_early.cl - the tile read before the strided copy into it is
 * waited for: a race with the copy, at the copy's own line.
 */
kernel void c(global const int *in, global int *out, local int *t)
{
	size_t lid = get_local_id(0);
	event_t e = async_work_group_strided_copy(t, in + get_group_id(0) * 16, 8, 2, 0);
	out[get_global_id(0)] = t[lid];
	wait_group_events(1, &e);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel c --global 16 --local 8 --arg '{name: in, buffer: int, count: 2 * N, init: {iota: 0}}'
 * expect: error race read-write local 7 8
 * expect: error uninitialized value-written global 8
 */
