/* A kernel that never finishes: the harness must report timeout and go on. The
 * volatile store keeps the compiler from deleting the loop. */
kernel void hang(global const int *in, global int *out)
{
	volatile global int *sink = out;
	for (;;)
		*sink += 1;
}
