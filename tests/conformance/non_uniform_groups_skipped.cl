/* non_uniform_groups_skipped.cl - 60 items in groups of 16: the last group is smaller,
 * which a program built as OpenCL C 1.2 cannot launch (Oclgrind launches it for a CL2.0
 * build, as the harness builds a ragged launch by default); the run is a skip that says
 * so, and the check, having checked nothing, exits 77.
 */
kernel void scale(global float *x)
{
	x[get_global_id(0)] *= 2;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel scale --global 60 --local 16 --options -cl-std=CL1.2
 * exit: 77
 * message: the last work-group is smaller than the others, which a program built as OpenCL C 1.x
 * message: nothing was checked: every run was a skip
 */
