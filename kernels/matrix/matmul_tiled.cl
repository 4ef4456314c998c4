/* A tiled matrix multiply, c = a b with a M x k, b k x n and c M x n, all row-major: each
 * work-group steps a square tile along a's rows and b's columns, every item loading one
 * element of each tile into local memory; a barrier after the loads lets every item use
 * the whole tiles, and one after the use keeps the next loads from overwriting them while
 * others still read. */
kernel void matmul_tiled(global const float *a, global const float *b, global float *c, int n,
			 int k, local float *ta, local float *tb)
{
	int side = get_local_size(0);
	int lx = get_local_id(0), ly = get_local_id(1);
	int col = get_global_id(0), row = get_global_id(1);
	float sum = 0;
	for (int t = 0; t < k; t += side) {
		ta[ly * side + lx] = a[row * k + t + lx];
		tb[ly * side + lx] = b[(t + ly) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int i = 0; i < side; i++)
			sum += ta[ly * side + i] * tb[i * side + lx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = sum;
}
