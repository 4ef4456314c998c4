/* A kernel that never finishes: it spins until in[0] becomes non-zero, which the case
 * never makes it. A compiler cannot prove the loop endless, so every driver builds it;
 * the volatile store keeps the loop from being deleted. The harness must report timeout
 * and go on. */
kernel void hang(global const int *in, global int *out)
{
	volatile global int *sink = out;
	while (in[0] == 0)
		*sink += 1;
}
