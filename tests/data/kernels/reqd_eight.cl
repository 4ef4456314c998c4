/* A kernel that runs at work-groups of 8 only. */
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global int *out)
{
	out[get_global_id(0)] = 1;
}
