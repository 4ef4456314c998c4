/* pool.h - jobs run in child processes, `jobs` at a time: each child does one job and
 * writes what it found to the parent, which gets it with the child's exit status in the
 * order the jobs finish. A job that crashes or hangs its child costs that job alone. */
#ifndef CLH_POOL_H
#define CLH_POOL_H

#include <stddef.h>

#include "base/util.h"

struct pool {
	/* In the child: job `index`, its findings written to out. */
	void (*work)(void *ctx, size_t index, struct strbuf *out);
	/* In the parent: job `index` is over; `text` is what it wrote (may be empty),
	 * `status` its child's wait status. */
	void (*done)(void *ctx, size_t index, const char *text, int status);
	void *ctx;
	unsigned jobs; /* at a time; 0: one */
};

/* In a job's child: ends the job now, with what it wrote so far in out (a job that knows
 * its answer need not wait for the rest of its work; the child's own children die with
 * it, as interrupt_in_child arranges). */
void pool_job_end(const struct strbuf *out) __attribute__((noreturn));

/* Runs jobs 0 .. n-1. After a termination signal (interrupt.h) it starts no job and the
 * running ones are ended by the signal: done() is not called for those. Returns the
 * number of jobs done. */
size_t pool_run(const struct pool *p, size_t n);

#endif
