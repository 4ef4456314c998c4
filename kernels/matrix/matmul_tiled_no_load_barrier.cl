/* The tiled matrix multiply without the barrier between loading the tiles and using
 * them: an item multiplies tile elements its neighbours may not have loaded yet, a race
 * on local memory. The barrier after the use is still there, so the next loads wait. */
kernel void matmul_tiled_no_load_barrier(global const float *a, global const float *b,
					 global float *c, int n, int k, local float *ta,
					 local float *tb)
{
	int side = get_local_size(0);
	int lx = get_local_id(0), ly = get_local_id(1);
	int col = get_global_id(0), row = get_global_id(1);
	float sum = 0;
	for (int t = 0; t < k; t += side) {
		ta[ly * side + lx] = a[row * k + t + lx];
		tb[ly * side + lx] = b[(t + ly) * n + col];
		for (int i = 0; i < side; i++)
			sum += ta[ly * side + i] * tb[i * side + lx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = sum;
}
