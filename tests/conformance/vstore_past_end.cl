/* vstore_past_end.cl - each item stores four floats at 4 * i + 1: the last store runs
 * one element past the buffer.
 */
kernel void pack(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	vstore4((float4)(in[i]), 0, out + 4 * i + 1);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel pack --global 16 --local 8 --arg '{name: out, buffer: float, count: 4 * N}'
 * expect: error out-of-bounds write global 7
 */
