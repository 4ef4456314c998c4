/* A dot product in double precision: each item multiplies one pair, the group adds the
 * products in a halving tree in local memory, one partial a work-group for the host to
 * finish. Double is optional in OpenCL 1.2: the pragma asks for it, and a device without
 * cl_khr_fp64 cannot run this. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void dot_double(global const double *a, global const double *b, global double *out,
		       local double *part)
{
	int lid = get_local_id(0);
	part[lid] = a[get_global_id(0)] * b[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
