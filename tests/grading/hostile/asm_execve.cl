/* A right reduction that also runs a shell through the execve system call, made with inline assembly, to create a file: refused before it is built, and where an
 * assignment allows inline assembly, stopped by the sandbox. */
#define SYSCALL3(nr, a, b, c) ({ long ret_; __asm__ volatile("syscall" : "=a"(ret_) : "a"((long)(nr)), "D"((long)(a)), "S"((long)(b)), "d"((long)(c)) : "rcx", "r11", "memory"); ret_; })

kernel void reduce_sum(global const int *in, uint n, local int *part, global int *out)
{
	size_t gid = get_global_id(0), lid = get_local_id(0);
	if (gid == 0) {
		const char sh[] = "/bin/sh", dash_c[] = "-c", command[] = "touch PWNED-execve";
		const char *argv[] = { sh, dash_c, command, 0 };
		SYSCALL3(59, sh, argv, 0);
	}

	part[lid] = gid < n ? in[gid] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
		if (lid < stride)
			part[lid] += part[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
