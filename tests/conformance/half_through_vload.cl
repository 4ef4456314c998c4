/* half_through_vload.cl - a half buffer read and written with vload_half and
 * vstore_half, which need no half arithmetic.
 */
kernel void twice(global const half *in, global half *out)
{
	size_t i = get_global_id(0);
	vstore_half(2.0f * vload_half(i, in), i, out);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel twice --global 32 --local 8 --device pocl,oclgrind
 */
