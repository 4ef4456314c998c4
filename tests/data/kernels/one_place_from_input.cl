/* Every work-item writes its own input to one element: a write-write race whose writes
 * differ where the inputs do, and store one value where they are all the same. */
kernel void from_input(global const int *in, global int *q)
{
	q[3] = in[get_global_id(0)];
}
