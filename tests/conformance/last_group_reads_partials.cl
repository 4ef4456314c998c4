/* last_group_reads_partials.cl - each group stores its partial sum and the last group
 * adds them all: no barrier orders work-groups, so it reads what other groups write.
 */
kernel void total(global const int *in, global int *partials, global int *out)
{
	size_t g = get_group_id(0);
	if (get_local_id(0) == 0) {
		int s = 0;
		for (size_t k = 0; k < get_local_size(0); k++)
			s += in[g * get_local_size(0) + k];
		partials[g] = s;
	}
	if (g == get_num_groups(0) - 1 && get_local_id(0) == 0) {
		int s = 0;
		for (size_t k = 0; k < get_num_groups(0); k++)
			s += partials[k];
		out[0] = s;
	}
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel total --global 32 --local 8 --arg '{name: partials, buffer: int, count: 4}' --arg '{name: out, buffer: int, count: 1}'
 * expect: error race read-write global 11 16
 */
