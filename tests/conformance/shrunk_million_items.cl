/* shrunk_million_items.cl - the write-write race of local ids to one element, at a launch
 * of a million items: Oclgrind runs three of its groups, and the race stays an error.
 */
kernel void foo(global int *p, global short *q)
{
	q[3] = get_local_id(0);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel foo --global 1048576 --local 1024
 * expect: error race write-write global 6 6
 */
