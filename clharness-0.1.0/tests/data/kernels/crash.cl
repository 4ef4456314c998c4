/* A kernel that writes far outside its buffer: on a CPU device this kills the process
 * that runs it, and the harness must report crash and go on. */
kernel void crash(global const int *in, global int *out)
{
	out[get_global_id(0) + 4000000000000000L] = in[get_global_id(0)];
}
