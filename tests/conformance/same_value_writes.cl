/* same_value_writes.cl - every item stores 1 to one flag: writes of one value, which
 * devices never show but OpenCL leaves undefined, a warning.
 */
kernel void flag(global int *done)
{
	done[0] = 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel flag --global 32 --local 8
 * expect: warning race write-write global 6 6
 */
