/* asm_execve.cl - a kernel that runs a shell through the execve system call, made with
 * inline assembly (x86-64), to create a file: the sandbox must stop it. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		const char sh[] = "/bin/sh", dash_c[] = "-c", command[] = "touch PWNED-execve";
		const char *argv[] = { sh, dash_c, command, 0 };
		SYSCALL3(59, sh, argv, 0);
	}
	out[i] = in[i];
}
