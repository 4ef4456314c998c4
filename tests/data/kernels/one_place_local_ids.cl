/* Every work-item writes its local id to one element: a write-write race of different
 * values, which no simulator's cap may turn into one of the same value. */
kernel void one_place(global int *unused, global short *q)
{
	q[3] = get_local_id(0);
}
