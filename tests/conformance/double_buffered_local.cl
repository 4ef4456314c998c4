/* double_buffered_local.cl - a Hillis-Steele scan that reads one local buffer and writes
 * the other at each step, one barrier a step: no race.
 */
kernel void scan(global int *x, local int *a, local int *b)
{
	size_t lid = get_local_id(0), size = get_local_size(0);
	local int *from = a, *to = b;
	from[lid] = x[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t d = 1; d < size; d *= 2) {
		to[lid] = lid >= d ? from[lid] + from[lid - d] : from[lid];
		barrier(CLK_LOCAL_MEM_FENCE);
		local int *swap = from;
		from = to;
		to = swap;
	}
	x[get_global_id(0)] = from[lid];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel scan --global 32 --local 8 --device pocl,oclgrind
 */
