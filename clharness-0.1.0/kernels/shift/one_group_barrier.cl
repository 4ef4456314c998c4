/* The shifted read within one work-group, with barrier(CLK_GLOBAL_MEM_FENCE) between the
 * write and the read: every slot is written and made visible to the work-group before any
 * item reads. Right, because one work-group covers the whole array; across work-groups
 * the same barrier is not enough (across_groups_barrier). */
kernel void shift_one_group(global const float *in, global float *x, global float *y,
			    uint n, uint k)
{
	size_t gid = get_global_id(0);

	x[gid] = in[gid];
	barrier(CLK_GLOBAL_MEM_FENCE);
	y[gid] = x[(gid + k) % n];
}
