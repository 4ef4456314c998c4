/* libc_open.cl - a kernel that calls the C library's open from inline assembly (x86-64)
 * to create a file: the call's system call is the library's own, which the sandbox lets
 * through, so Landlock alone must keep the file from being made. */
__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		const char path[] = "PWNED-libc";
		long fd;
		__asm__ volatile("call open@PLT"
				 : "=a"(fd)
				 : "D"(path), "S"(0101L), "d"(0644L)
				 : "rcx", "r8", "r9", "r10", "r11", "memory");
	}
	out[i] = in[i];
}
