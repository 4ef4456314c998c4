/* async_copy_not_waited.cl - an async copy into local memory whose event nobody waits
 * for: an error at the end of the kernel.
 */
kernel void c(global const int *in, global int *out, local int *t)
{
	event_t e = async_work_group_copy(t, in + get_group_id(0) * 8, 8, 0);
	out[get_global_id(0)] = in[get_global_id(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel c --global 16 --local 8
 * expect: error async-copy not-waited-for 8
 */
