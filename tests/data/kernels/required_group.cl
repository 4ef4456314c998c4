/* required_group.cl - a kernel that requires work-groups of 8 (reqd_work_group_size). */
__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void reqd(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i] * 2.0f;
}
