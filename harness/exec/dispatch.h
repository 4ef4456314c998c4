/* dispatch.h - runs cases on targets through worker processes, turning a worker that
 * hangs into `timeout` and one that dies into `crash`, and carrying on after either. */
#ifndef CLH_DISPATCH_H
#define CLH_DISPATCH_H

#include <stddef.h>

#include "exec/backend.h"
#include "exec/runner.h"

struct dispatcher;

/* Has a backend map its libraries and make what its workers share (backend.preload) for
 * as long as it is held, here and in processes forked from here. A process that forks
 * children which open dispatchers and may be killed before they close them (hunt's
 * sweeps) holds the backend first, so that what is shared belongs to a process that
 * ends in order and removes it. dispatch_open holds it too, dispatch_close releases. */
void dispatch_hold(const struct backend *b);
void dispatch_release(const struct backend *b);

/* Lists a backend's targets in a worker process, which then waits to run the first
 * target asked of it, sparing the second driver start-up a fresh worker would cost. The
 * cases and options are what every dispatch_run runs; they must outlive the dispatcher.
 * Returns -1 with *cause when the listing fails. */
int dispatch_open(const struct backend *b, struct test_case *const *cases, size_t ncases,
		  const struct run_options *opt, unsigned timeout_s, struct dispatcher **out,
		  char **cause);
size_t dispatch_target_count(const struct dispatcher *d);
const struct target *dispatch_target(const struct dispatcher *d, size_t index);

/* Runs every case on target `index` and hands each result to emit(), in order. A run
 * with no news for timeout_s seconds is killed and reported as `timeout`; a worker that
 * dies is reported as `crash` for the run it was in; a new worker resumes after that
 * run. */
void dispatch_run(struct dispatcher *d, size_t index, void (*emit)(void *ctx, struct result *r),
		  void *ctx);

/* As dispatch_run, for the cases from `from` up to (not including) `to` alone. */
void dispatch_run_cases(struct dispatcher *d, size_t index, size_t from, size_t to,
			void (*emit)(void *ctx, struct result *r), void *ctx);

/* As dispatch_run, for the cases handed out by `claim` (claim.h), a number a case, until
 * it names none left: processes forked with the same claim share the cases out as each
 * becomes free. A device's worker asks for its next case when done with one, so that it
 * starts its driver (and, on PoCL, loads the compiler) once for all it runs. A case whose
 * results never come is the caller's to report: a process can die between taking a
 * number and starting its worker. */
struct claim;
void dispatch_run_claimed(struct dispatcher *d, size_t index, struct claim *claim,
			  void (*emit)(void *ctx, struct result *r), void *ctx);

/* Hands emit() the result of case `c` on target `index` that never came: a crash, with
 * `message` saying why. */
void dispatch_report_lost(struct dispatcher *d, size_t index, size_t c, const char *message,
			  void (*emit)(void *ctx, struct result *r), void *ctx);

/* Ends the worker that listed the targets and waits to run the first, if it still waits:
 * before this process is forked to run parts of the work in copies of itself, each of
 * which would otherwise take that worker as its own. */
void dispatch_release_idle(struct dispatcher *d);

/* Describes `kernel` of the program at `path`, built with `options`, on target `index`, in a worker
 * of its own (a build can crash a driver too). Returns 0 with *sig filled, or -1 with the verdict
 * and diagnostic in `failure`: build-error with its log, case-error for a missing kernel,
 * timeout or crash. */
int dispatch_inspect(struct dispatcher *d, size_t index, const char *path, const char *kernel,
		     const char *options, struct kernel_sig *sig, struct result *failure);

/* Ends the waiting worker, if any, and frees the dispatcher. Accepts NULL. */
void dispatch_close(struct dispatcher *d);

#endif
