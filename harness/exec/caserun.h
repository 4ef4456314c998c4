/* caserun.h - loaded cases run as `clharness run` runs them: each case's reference kernel
 * on the first CPU device, its outputs in before any case's result is compared with them;
 * every case on every selected target, each result compared with the other targets'
 * outputs where the case says so, judged by its case's golden and handed on; once all
 * have run, the runs a golden lists that did not happen.
 * `run` reports what it hands on; `mutate` judges a mutant kernel by it. */
#ifndef CLH_CASERUN_H
#define CLH_CASERUN_H

#include <stdbool.h>
#include <stddef.h>

#include "case/suppress.h"
#include "case/testcase.h"
#include "exec/runner.h"
#include "exec/select.h"
#include "results/crosscheck.h"
#include "results/findagree.h"
#include "results/golden.h"
#include "results/result.h"

struct case_run {
	struct test_case *const *cases;
	size_t ncases;
	struct golden_book *book;
	/* --suppressions' own list; each case's own come with it. NULL: none. */
	const struct suppression_list *suppressions;
	/* Gets every result to report: each case's runs, a reference kernel's failure, a
	 * golden's run that did not happen. */
	void (*emit)(void *ctx, struct result *r);
	void *ctx;

	struct crosscheck cross;
	struct findagree agree;
	struct test_case **refs; /* reference runs of the cases with a reference kernel */
	size_t nrefs;
	struct selection ref_sel; /* the CPU device they run on, once refs are loaded */
	bool refs_to_run;
	/* What each suppression matched: --suppressions' own, then each case's. */
	size_t *matched;
	size_t **case_matched;
	bool *case_simulated; /* a case ran on a simulator: its suppressions could match */
	bool simulated;
};

void case_run_open(struct case_run *cr, struct test_case *const *cases, size_t ncases,
		   struct golden_book *book, const struct suppression_list *suppressions,
		   void (*emit)(void *ctx, struct result *r), void *ctx);
/* Loads the reference kernels of the cases that have one, and finds the CPU device they
 * run on; case_run_targets runs them, their outputs in before any case's are compared. */
void case_run_load_references(struct case_run *cr, const struct run_options *opt,
			      unsigned timeout_s);
/* Loads the reference kernels and runs them now, before any target runs the cases. */
void case_run_references(struct case_run *cr, const struct run_options *opt, unsigned timeout_s);
/* Runs every case on selected target t. */
void case_run_target(struct case_run *cr, struct selection *sel, size_t t);
/* Runs every case on every selected target, with `jobs` processes side by side where it
 * is more than 1: the work cut into parts (some cases on one target, or on a CPU device
 * a runner that takes its cases one at a time as it becomes free), each run in a forked
 * copy of this process; the results come out in the order of one target after another,
 * each target's in the cases' order, all the same. */
void case_run_targets(struct case_run *cr, struct selection *sel, unsigned jobs);
/* Once every target ran: the golden runs that did not happen, handed on as failures, and
 * a warning on stderr for each suppression that matched nothing where it could have. */
void case_run_finish(struct case_run *cr);
void case_run_close(struct case_run *cr);

#endif
