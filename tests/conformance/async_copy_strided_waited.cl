/* async_copy_strided_waited.cl - a strided copy of every second element, waited for:
 * nothing to find, but Oclgrind 21.10's tracking of uninitialised memory applies the
 * source's stride to the local copy it makes, so the odd slots it filled read as
 * uninitialised (the values themselves arrive: devices leave the same output). A rerun
 * with the copy written out as loads and stores finds no such value, so it is a note.
 */
kernel void c(global const int *in, global int *out, local int *t)
{
	event_t e = async_work_group_strided_copy(t, in + get_group_id(0) * 16, 8, 2, 0);
	wait_group_events(1, &e);
	out[get_global_id(0)] = t[get_local_id(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel c --global 16 --local 8 --arg '{name: in, buffer: int, count: 2 * N, init: {iota: 0}}'
 * simulator-false: note uninitialized value-written global 11
 */
