/* A copy with a barrier nothing needs: each item reads and writes its own element, so
 * removing the barrier, or changing its fence, changes nothing (equivalent mutants). */
kernel void copy_with_barrier(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
	barrier(CLK_GLOBAL_MEM_FENCE);
}
