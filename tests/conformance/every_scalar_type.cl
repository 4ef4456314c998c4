/* every_scalar_type.cl - a scalar parameter of each built-in type a kernel may take,
 * all made from the signature.
 */
kernel void sum(global double *out, char c, uchar uc, short s, ushort us, int i, uint ui,
		long l, ulong ul, float f, double d)
{
	size_t g = get_global_id(0);
	out[g] = c + uc + s + us + i + ui + l + ul + f + d;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel sum --global 16 --local 4 --device pocl,oclgrind
 */
