/* atomic_counter.cl - every item adds to one counter atomically: no race.
 */
kernel void count(global int *total)
{
	atomic_inc(&total[0]);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel count --global 64 --local 16
 */
