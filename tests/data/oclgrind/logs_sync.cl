/* logs_sync.cl - the kernels whose Oclgrind 21.10 logs are divergence_fence_flags.log,
 * events_not_waited.log, unaligned_read.log and async_copy_race.log (oclgrind-kernel,
 * OCLGRIND_DATA_RACES=1, eight work-items in one group). */
kernel void fence(global int *x)
{
	size_t lid = get_local_id(0);
	if (lid % 2)
		barrier(CLK_LOCAL_MEM_FENCE);
	else
		barrier(CLK_GLOBAL_MEM_FENCE);
	x[get_global_id(0)] = 1;
}
kernel void sameline(global int *x)
{
	size_t lid = get_local_id(0);
	barrier(lid % 2 ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE);
	x[get_global_id(0)] = 1;
}
kernel void events(global int *x, local int *t)
{
	event_t e = async_work_group_copy(t, x, 8, 0);
	x[get_global_id(0)] = 2;
}
kernel void unaligned(global char *x, global int *y)
{
	size_t i = get_global_id(0);
	global int *p = (global int *)(x + 1);
	y[i] = p[i];
}
kernel void asyncrace(global int *x, local int *t)
{
	size_t lid = get_local_id(0);
	t[lid] = 5;
	event_t e = async_work_group_copy(t, x, 8, 0);
	wait_group_events(1, &e);
	x[get_global_id(0)] = t[lid];
}
