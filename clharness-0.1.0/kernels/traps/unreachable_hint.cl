/* A copy that promises the compiler, with __builtin_unreachable, that no item lies past
 * the end. Optimised, the promise becomes a call to llvm.assume, which Oclgrind 21.10
 * cannot run ("Undefined external function: llvm.assume"); built with -cl-opt-disable,
 * as clharness simulates every program, it stays a plain branch and the kernel runs. */
kernel void copy_with_promise(global const float *in, global float *out, uint n)
{
	size_t i = get_global_id(0);

	if (i >= n)
		__builtin_unreachable();
	out[i] = in[i];
}
