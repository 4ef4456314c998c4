/* A kernel that calls __builtin_assume itself: even built with -cl-opt-disable it holds a
 * call to llvm.assume, which Oclgrind 21.10 cannot simulate. The harness must say so as
 * the build error it is, not as a kernel that is missing. */
kernel void copy_assumed(global const int *in, global int *out)
{
	size_t i = get_global_id(0);

	__builtin_assume(i < 1000000);
	out[i] = in[i];
}
