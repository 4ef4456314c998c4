/* constant_table.cl - a __constant table a work-group long, each item its own entry.
 */
kernel void look_up(constant float *table, global float *out)
{
	out[get_global_id(0)] = table[get_local_id(0)];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel look_up --global 32 --local 8 --device pocl,oclgrind
 */
