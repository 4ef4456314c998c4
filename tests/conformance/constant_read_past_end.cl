/* constant_read_past_end.cl - a __constant table a work-group long, read one past its
 * end by the last item of each group; Oclgrind holds a __constant argument in global
 * memory, and reports it there.
 */
kernel void look_up(constant float *table, global float *out)
{
	out[get_global_id(0)] = table[get_local_id(0) + 1];
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel look_up --global 32 --local 8 --arg '{name: table, constant: float, count: L}'
 * expect: error out-of-bounds read global 7
 */
