/* plain_counter.cl - the same counter with a plain read-modify-write: a lost update.
 */
kernel void count(global int *total)
{
	total[0] += 1;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel count --global 64 --local 16
 * expect: error race read-write global 5 5
 * expect: error race write-write global 5 5
 */
