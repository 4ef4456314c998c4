/* clexec.h - runs a case's launches through the OpenCL API on one device: the part every
 * OpenCL backend (real devices, and simulators reached through the ICD loader) shares. */
#ifndef CLH_CLEXEC_H
#define CLH_CLEXEC_H

#include "exec/backend.h"
#include "exec/ocl.h"

struct clexec;

/* What a backend that instruments kernels adds to a plain run on the device: the program
 * it builds in place of the kernel file's, the arguments the built kernels take after the
 * case's, and work around each launch. */
struct clexec_hooks {
	void *ctx;
	/* The program to build for kernel_path, for a case whose own build options are
	 * `options`; NULL after filling `failure` where there is none. *len is its length. */
	const char *(*source)(void *ctx, const char *kernel_path, const char *options,
			      size_t *len, struct result *failure);
	unsigned extra_args;
	/* Before launch `launch` of the plan is enqueued, with the case's arguments set:
	 * sets the extra arguments and enqueues what must come first. -1 after filling
	 * `failure`. */
	int (*before_launch)(void *ctx, cl_context context, cl_command_queue queue,
			     cl_kernel kernel, const struct test_case *tc, const struct plan *plan,
			     size_t launch, struct result *failure);
	/* After it is enqueued: enqueues what reads its outcome. */
	int (*after_launch)(void *ctx, cl_command_queue queue, size_t launch);
	/* Once the launches of a round are over: `ran` where all of them ran to their end. */
	void (*finished)(void *ctx, bool ran, const struct test_case *tc, const struct plan *plan,
			 struct result *failure);
};

/* From now on, builds and launches of cx go through `hooks` (NULL: none). */
void clexec_set_hooks(struct clexec *cx, const struct clexec_hooks *hooks);

/* Opens a context and a profiling queue on the target's device. `guarded`: every buffer
 * gets guard zones (guard.h), and a write into one is a finding of the run. */
int clexec_open(const struct target *target, bool guarded, struct clexec **out, char **cause);

/* Builds the case's programs with `options` added to the case's own, reusing a program
 * already built on this device from the same file with the same options, or loading one
 * from the program cache (progcache.h; counted in *cached), then creates each step's
 * kernel and checks its arguments against the case. Returns the number of programs built
 * from source, or -1. */
int clexec_build(struct clexec *cx, const struct test_case *tc, const char *options,
		 unsigned *cached, struct result *failure);

/* As backend.execute, for the case last built. */
int clexec_execute(struct clexec *cx, const struct test_case *tc, const struct plan *plan,
		   void *const *initial, void **final, unsigned repeat, uint64_t *round_ns,
		   struct result *failure);

/* As backend.inspect, building with the backend's `own_options` and the case's `options`
 * added, as clexec_build adds them. */
int clexec_inspect(struct clexec *cx, const char *path, const char *kernel, const char *own_options,
		   const char *options, struct kernel_sig *sig, struct result *failure);

/* The OpenCL type of the session's device (CL_DEVICE_TYPE_CPU, ...). */
cl_device_type clexec_device_type(const struct clexec *cx);

void clexec_close(struct clexec *cx);

/* In a worker: whether clexec_close stores every program it built or loaded in the
 * program cache, with the code compiled for each launch shape it ran at
 * (run_options.keep_programs_whole). */
void clexec_keep_programs_whole(bool keep);

#endif
