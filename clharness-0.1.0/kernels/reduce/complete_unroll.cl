/* The tree completely unrolled for a work-group size fixed when the kernel is compiled:
 * GROUP_SIZE is a constant, so each `if (GROUP_SIZE >= ...)` folds away and no loop is
 * left; reqd_work_group_size makes a launch with any other size fail instead of computing
 * nonsense. Every level keeps its barrier. */
#define GROUP_SIZE 128

__attribute__((reqd_work_group_size(GROUP_SIZE, 1, 1)))
kernel void reduce_unrolled(global const int *in, local int *scratch, global int *out)
{
	size_t lid = get_local_id(0);

	scratch[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (GROUP_SIZE >= 256) {
		if (lid < 128)
			scratch[lid] += scratch[lid + 128];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (GROUP_SIZE >= 128) {
		if (lid < 64)
			scratch[lid] += scratch[lid + 64];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	for (size_t s = 32; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = scratch[0];
}
