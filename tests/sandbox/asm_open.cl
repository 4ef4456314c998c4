/* asm_open.cl - a kernel that creates a file through the open system call, made with
 * inline assembly (x86-64), then writes into it: the sandbox must stop it at the open. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		const char path[] = "PWNED-open";
		const char text[] = "written by a kernel\n";
		long fd = SYSCALL3(2, path, 0101, 0644); /* O_WRONLY | O_CREAT */
		SYSCALL3(1, fd, text, sizeof text - 1);
	}
	out[i] = in[i];
}
