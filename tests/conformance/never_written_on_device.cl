/* never_written_on_device.cl - a kernel that writes only the even elements of its
 * output, checked on PoCL against the values it should hold: the harness poisons the
 * output first, so the odd elements are reported as never written, not as wrong values.
 */
kernel void evens(global int *out)
{
	size_t i = get_global_id(0);
	if (i % 2 == 0)
		out[i] = (int)i;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel evens --global 4 --local 2 --device pocl --expect 'out=[0, 1, 2, 3]'
 * exit: 1
 * message: got nothing: it was never written
 */
