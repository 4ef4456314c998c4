/* Every work-item writes 7 to one element: a write-write race whose writes store the same
 * value, which devices never show but OpenCL leaves undefined: a warning, when every
 * diagnostic of the run was seen. */
kernel void same_value(global int *q)
{
	q[3] = 7;
}
