/* asm_openat.cl - a kernel that creates a file through openat, the call the C library
 * itself opens files with, made with inline assembly (x86-64): the sandbox must stop it. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		const char path[] = "PWNED-openat";
		const char text[] = "written by a kernel\n";
		long fd = SYSCALL3(257, -100, path, 0101); /* AT_FDCWD, O_WRONLY | O_CREAT */
		SYSCALL3(1, fd, text, sizeof text - 1);
	}
	out[i] = in[i];
}
