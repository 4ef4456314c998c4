/* non_uniform_groups_skipped.cl - 60 items in groups of 16: the last group is smaller,
 * which Oclgrind 21.10 (OpenCL 1.2) cannot launch; the run is a skip that says so, and
 * the check, having checked nothing, exits 77.
 */
kernel void scale(global float *x)
{
	x[get_global_id(0)] *= 2;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel scale --global 60 --local 16
 * exit: 77
 * message: the last work-group is smaller than the others, which oclgrind
 * message: nothing was checked: every run was a skip
 */
