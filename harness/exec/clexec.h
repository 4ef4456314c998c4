/* clexec.h - runs a case's launches through the OpenCL API on one device: the part every
 * OpenCL backend (real devices, and simulators reached through the ICD loader) shares. */
#ifndef CLH_CLEXEC_H
#define CLH_CLEXEC_H

#include "exec/backend.h"

struct clexec;

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

/* As backend.inspect, building with `options` added. */
int clexec_inspect(struct clexec *cx, const char *path, const char *kernel, const char *options,
		   struct kernel_sig *sig, struct result *failure);

void clexec_close(struct clexec *cx);

/* In a worker: whether clexec_close stores every program it built or loaded in the
 * program cache, with the code compiled for each launch shape it ran at
 * (run_options.keep_programs_whole). */
void clexec_keep_programs_whole(bool keep);

#endif
