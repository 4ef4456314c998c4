/* hunt.h - `clharness hunt`: the races and other bugs that one simulated run misses,
 * searched for over input sets, launch shapes and builds, within a time budget, on every
 * core: under racecheck where a device and libclang are there (each finding then
 * confirmed under Oclgrind where its launch is small enough), else under Oclgrind. Each
 * finding is reported once, with the trial that first showed it. */
#ifndef CLH_HUNT_H
#define CLH_HUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "case/shape.h"
#include "check/adhoc.h"
#include "results/report.h"

struct hunt_request {
	char **cases; /* case files */
	size_t ncases;
	bool fixed_local; /* --fixed-local: the kernel form's --local is the only shape */
	/* --any-local: a finding only at work-group shapes the launch as given does not use
	 * is an error too; else a warning that names the shape. */
	bool any_local;
	const struct adhoc_request *kernel; /* or one kernel as check takes it; NULL: none */
	/* --device: the one target the trials run on, which must find (CAN_FIND); none: the
	 * first racecheck target where the rewrite can run, else Oclgrind. */
	char *const *patterns;
	size_t npatterns;
	double budget_s;		    /* wall clock for the whole hunt */
	unsigned jobs;			    /* simulator runs side by side (0: every core) */
	unsigned timeout_s;		    /* one trial's limit */
	bool progress;			    /* a progress line on stderr */
	const char *save_dir;		    /* --save: a reproducer case a finding here */
	const struct suppression_list *suppressions; /* --suppressions: left out, counted */
};

/* One simulated run of the sweep. */
struct hunt_trial {
	enum input_set set;
	struct shape n, l;
	bool optimised; /* the simulator runs the optimised program (sim_build: optimised) */
};

/* The sweep for a case (or kernel) whose own simulated shape is n_own, l_own, whose
 * input buffers can take the sets `sets` (a bit per enum input_set), on a simulator
 * that takes work-groups of up to max_group items: the own shape with random inputs
 * first, the plain run, and second the same optimised; then every input set, work-group size (1, 2,
 * 4, ... up to max_group, in each dimension alone and in all at once; `fixed_group`: l_own
 * alone, for a kernel that needs it), group count (one, two, three; where ragged, also N
 * that is no multiple of L) and build, the cheapest first. Caller frees *trials. */
size_t hunt_plan(const struct shape *n_own, const struct shape *l_own, unsigned sets,
		 unsigned long long max_group, bool ragged, bool fixed_group,
		 struct hunt_trial **trials);

/* Describes a trial: "zeros inputs, N=24 L=8, optimised build"; a case's own inputs
 * (own_inputs: the target is a case, whose random set is its own) as "its own inputs". */
void hunt_trial_text(const struct hunt_trial *t, bool own_inputs, char *buf, size_t size);

/* Runs the hunt, reporting to rp's stream. Returns the exit status: 0 when nothing was
 * found; 1 when an error was, a trial was cut short, or no trial ran to its end; 77
 * (EXIT_SKIP) when every trial was a skip; 2 when the hunt could not start. */
int hunt_run(const struct hunt_request *rq, struct reporter *rp);

#endif
