/* asm_fork.cl - a kernel that starts a process through the fork system call, made with
 * inline assembly (x86-64), whose copy creates a file: the sandbox must stop it. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		const char path[] = "PWNED-fork";
		if (SYSCALL3(57, 0, 0, 0) == 0) {
			SYSCALL3(2, path, 0101, 0644);
			SYSCALL3(231, 0, 0, 0); /* exit_group */
		}
	}
	out[i] = in[i];
}
