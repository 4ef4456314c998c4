/* A correct kernel for the harness's own tests: out[i] = in[i]. */
kernel void copy(global const int *in, global int *out)
{
	out[get_global_id(0)] = in[get_global_id(0)];
}
