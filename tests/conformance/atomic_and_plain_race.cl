/* atomic_and_plain_race.cl - every item adds to a counter atomically while item 0
 * also resets it with a plain store: an atomic does not order a plain access, and
 * its read and its write each race with the store.
 */
kernel void count(global int *counter)
{
	if (get_global_id(0) == 0)
		counter[0] = 0;
	atomic_add(&counter[0], 1);
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel count --global 16 --local 16 --arg '{name: counter, buffer: int, count: 1, init: {fill: 0}}'
 * expect: error race write-write global 8 9
 * expect: error race read-write global 8 9
 */
