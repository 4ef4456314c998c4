/* A right tiled transpose that also creates a file in the grader's working folder and
 * writes its source's first words into it, through system calls made with inline
 * assembly (x86-64): it must leave no file, refused before it is built. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

kernel void transpose_tiled(global const float *in, global float *out, int width, int height,
			    local float *tile)
{
	int side = get_local_size(0);
	int lx = get_local_id(0), ly = get_local_id(1);
	if (get_global_id(0) == 0 && get_global_id(1) == 0) {
		const char path[] = "PWNED-transpose";
		const char text[] = "kernel void transpose_tiled\n";
		long fd = SYSCALL3(2, path, 0101, 0644); /* open(path, O_WRONLY | O_CREAT) */
		SYSCALL3(1, fd, text, sizeof text - 1);	 /* write */
	}
	tile[ly * (side + 1) + lx] = in[get_global_id(1) * width + get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	int x = get_group_id(1) * side + lx;
	int y = get_group_id(0) * side + ly;
	out[y * height + x] = tile[lx * (side + 1) + ly];
}
