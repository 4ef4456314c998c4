/* dispatch.h - runs cases on targets through worker processes, turning a worker that
 * hangs into `timeout` and one that dies into `crash`, and carrying on after either. */
#ifndef CLH_DISPATCH_H
#define CLH_DISPATCH_H

#include <stddef.h>

#include "backend.h"
#include "runner.h"

/* Lists a backend's targets in a worker process. */
int dispatch_list_targets(const struct backend *b, unsigned timeout_s, struct target **targets,
			  size_t *count, char **cause);

/* Runs every case on one target and hands each result to emit(), in order. A run with no
 * news for timeout_s seconds is killed and reported as `timeout`; a worker that dies is
 * reported as `crash` for the run it was in; a new worker resumes after that run. */
void dispatch_run(const struct backend *b, const struct target *t, struct test_case *const *cases,
		  size_t ncases, const struct run_options *opt, unsigned timeout_s,
		  void (*emit)(void *ctx, struct result *r), void *ctx);

#endif
