/* asm_mkdir.cl - a kernel that makes a folder through the mkdir system call, in inline
 * assembly of no operands (x86-64), which a SPIR parse (libclang's, for mutate) takes as
 * PoCL does: it and every mutant of it make the call, which the sandbox must stop. */
__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i < 1)
		__asm__ volatile("leaq 1f(%rip), %rdi\n\tmovl $0755, %esi\n\tmovl $83, %eax\n\t"
				 "syscall\n\tjmp 2f\n1:\t.asciz \"PWNED-mkdir\"\n2:");
	out[i] = in[i];
}
