/* asm_write.cl - a kernel that writes to its worker's standard error through the write
 * system call, made with inline assembly (x86-64): the sandbox must stop it. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		const char text[] = "PWNED-write: a kernel wrote this\n";
		SYSCALL3(1, 2, text, sizeof text - 1);
	}
	out[i] = in[i];
}
