/* asm_socket.cl - a kernel that opens a TCP socket through the socket system call, made
 * with inline assembly (x86-64), and connects to port `arg` on this machine: the sandbox
 * must stop it. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

__kernel void copy(__global const int *in, __global int *out, int arg)
{
	size_t i = get_global_id(0);
	if (i == 0) {
		/* struct sockaddr_in: AF_INET, the port in network order, 127.0.0.1. */
		uchar address[16] = { 2, 0, (uchar)(arg >> 8), (uchar)arg, 127, 0, 0, 1 };
		long fd = SYSCALL3(41, 2, 1, 0); /* socket(AF_INET, SOCK_STREAM, 0) */
		SYSCALL3(42, fd, address, 16);	 /* connect */
	}
	out[i] = in[i];
}
