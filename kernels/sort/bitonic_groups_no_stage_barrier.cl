/* The bitonic sort of each work-group without the barrier between its stages: a stage
 * reads pairs that items of the one before may not have written yet, a race on local
 * memory that leaves groups unsorted or with elements lost and repeated. */
kernel void bitonic_groups_no_stage_barrier(global const int *in, global int *out,
					    local int *v, int n, int group)
{
	int lid = get_local_id(0), size = get_local_size(0);
	v[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int k = 2; k <= size; k *= 2) {
		for (int j = k / 2; j > 0; j /= 2) {
			int partner = lid ^ j;
			if (partner > lid) {
				bool ascending = (lid & k) == 0;
				int a = v[lid], b = v[partner];
				if ((a > b) == ascending) {
					v[lid] = b;
					v[partner] = a;
				}
			}
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = v[lid];
}
