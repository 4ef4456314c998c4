/* two_d_rows_race.cl - a 2-D tile whose rows are summed by the first column without a
 * barrier after the tile is loaded.
 */
kernel void row_sums(global const float *in, global float *out, local float *tile)
{
	size_t x = get_local_id(0), y = get_local_id(1), w = get_local_size(0);
	tile[y * w + x] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
	if (x == 0) {
		float s = 0;
		for (size_t k = 0; k < w; k++)
			s += tile[y * w + k];
		out[get_global_id(1) * get_num_groups(0) + get_group_id(0)] = s;
	}
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel row_sums --global 16x8 --local 4x4 --arg '{name: tile, local: float, count: 16}'
 * expect: error race read-write local 7 11
 * expect: error uninitialized value-written global 12
 */
