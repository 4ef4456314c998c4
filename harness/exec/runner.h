/* runner.h - runs one case on one opened target: build once, then for every size and
 * work-group size generate inputs, execute, compute references and compare. */
#ifndef CLH_RUNNER_H
#define CLH_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "case/testcase.h"
#include "exec/backend.h"
#include "results/result.h"

struct run_options {
	const struct shape *sizes; /* NULL: each case's own sizes */
	size_t nsizes;
	const struct shape *locals; /* NULL: each case's own local sizes */
	size_t nlocals;
	unsigned repeat;   /* launches per run; the output of the last is checked */
	unsigned warmup;   /* of those, the first rounds left out of the round statistics */
	bool keep_outputs; /* copy every output buffer into its result */
	/* Limits on each worker process running these cases (0: none): CPU seconds of all
	 * its threads together, and bytes of address space. */
	unsigned cpu_limit_s;
	uint64_t address_space_limit;
	uint64_t file_size_limit; /* bytes a file the worker writes may hold (0: none) */
	/* --suppressions: findings every case means to have, before each case's own. */
	const struct suppression_list *suppressions;
	/* A run's wall-clock limit once its case is built, where shorter than the
	 * dispatcher's (0: that one): grading derives it from the reference kernel's own
	 * time, while a build keeps the longer limit. run_limit_why says how it was derived,
	 * for the timeout's message. */
	unsigned run_limit_s;
	const char *run_limit_why;
	/* A run that times out ends the dispatch: a kernel that hangs at one size would hang
	 * at the next, and each would cost the whole limit. The runs after it give no
	 * result. */
	bool stop_at_timeout;
	/* Findings that earlier runs of the same search have shown as errors (NULL: none).
	 * Oclgrind tells a write-write race of differing values from one of the same value
	 * only by simulating the run a second time; for a race already shown to store
	 * differing values somewhere, that second run would tell the search nothing new.
	 * A run given this list may so report such a race as an error without it. The list
	 * grows with every error a run shows (runner_settle), both in the worker that ran it,
	 * for the cases it runs next, and in the process it reports to, whose later workers
	 * start from it: whatever run shows that race next comes later in the search's order
	 * than the one that showed it, so none needs to classify it again. */
	struct finding_list *settled;
	/* The run measures kernel time (bench, grading): drivers then compile as they do for
	 * an application, for speed at each launch shape, whatever that costs in compiling.
	 * Otherwise they may compile once, one function for every shape
	 * (backend.prepare_worker). */
	bool timed;
	/* Workers run kernels outside the sandbox (sandbox.h), as grade --no-sandbox asks and
	 * CLHARNESS_SANDBOX=off does for every command. */
	bool unsandboxed;
	/* The kernels are someone else's (a student's): a confined worker may read their own
	 * files and the -I folders of their build, not the folders beside them. */
	bool untrusted;
	/* A folder of this run's own (NULL: none), where its drivers compile and the program
	 * cache keeps what it builds, while the shared caches are only read: a kernel that
	 * reaches its worker's files can then change no other run's programs. */
	const char *private_cache;
	/* Each program goes to the program cache once its worker is done with it, holding the
	 * code compiled for every launch shape it ran at: a run with a private cache then
	 * loads a reference kernel whole rather than compiling it again. */
	bool keep_programs_whole;
};

/* Where results go. begin() announces each run before it starts, so that a run that
 * hangs or crashes can be named by whoever watches. */
struct result_sink {
	void (*begin)(void *ctx, size_t case_index, size_t run);
	void (*emit)(void *ctx, struct result *r);
	void *ctx;
};

/* A case's runs on backend b: run 0 builds its programs; runs 1.. are its sizes x local
 * sizes (a simulator's: sim_sizes x sim_local; --size and --local replace either). */
size_t runner_run_count(const struct backend *b, const struct test_case *tc,
			const struct run_options *opt);
/* The N and L of run `run` (>= 1). */
void runner_run_shape(const struct backend *b, const struct test_case *tc,
		      const struct run_options *opt, size_t run, struct shape *n, struct shape *l);

/* Fills the fields every result of this case on this target shares; n and l NULL for a
 * result about the whole case. */
void runner_result_init(struct result *r, const struct backend *b, const struct target *t,
			const struct test_case *tc, const struct shape *n, const struct shape *l);

/* Adds the errors r shows to opt->settled, where the options keep one. */
void runner_settle(const struct run_options *opt, const struct result *r);

/* Runs `tc` from run `first` on. The build (run 0) always happens; its result is only
 * emitted when it fails, which ends the case. Returns BACKEND_LOST when the session can
 * run nothing more, else 0. */
int runner_run_case(const struct backend *b, struct backend_session *session,
		    const struct target *t, const struct test_case *tc, size_t case_index,
		    const struct run_options *opt, size_t first, const struct result_sink *sink);

#endif
