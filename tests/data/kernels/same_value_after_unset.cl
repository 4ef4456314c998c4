/* Each work-item branches on its slot of a local table nothing fills, an uninitialised
 * value, then stores 7 in one element as every other item does: a write-write race of
 * one value, which a second simulation shows to be so. That simulation is asked only
 * about writes: it must not spend the run's budget on the uninitialised values again. */
kernel void same_value_after_unset(local int *table, global int *q, global int *flags)
{
	size_t i = get_global_id(0);

	if (table[get_local_id(0)] > 0)
		flags[i] = 1;
	q[3] = 7;
}
