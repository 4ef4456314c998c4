/* OpenCL 1.2 has no atomic add for float: this builds one from atomic_cmpxchg on the
 * float's bits, retrying until no other item changed the total between the read and the
 * swap. The order of the additions still varies from run to run; whole-number inputs make
 * every order give the same, exact sum. */
void add_float(volatile global float *p, float value)
{
	volatile global uint *bits = (volatile global uint *)p;
	uint seen = atomic_or(bits, 0u), want;
	for (;;) {
		want = as_uint(as_float(seen) + value);
		uint was = atomic_cmpxchg(bits, seen, want);
		if (was == seen)
			break;
		seen = was;
	}
}

kernel void sum_float_cmpxchg(global const float *in, volatile global float *total)
{
	add_float(total, in[get_global_id(0)]);
}
