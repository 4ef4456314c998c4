/* asm_kill.cl - a kernel that kills process `arg` through the kill system call, made
 * with inline assembly (x86-64): the sandbox must stop it, and the process live on. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0)
		SYSCALL3(62, arg, 9, 0); /* kill(arg, SIGKILL) */
	out[i] = in[i];
}
