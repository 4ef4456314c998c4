/* select.h - the targets a run visits: the devices of every backend that the --device
 * patterns select, and the backends that cannot run here, each with the reason. */
#ifndef CLH_SELECT_H
#define CLH_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "exec/backend.h"
#include "exec/dispatch.h"
#include "exec/runner.h"
#include "results/report.h"

/* A backend the patterns ask for (or that a plain run includes) but that cannot run. */
struct missing_backend {
	const struct backend *backend;
	char *reason;
};

struct selection {
	struct dispatcher **dispatchers; /* one a backend; NULL where it was not opened */
	struct {
		struct dispatcher *d;
		size_t index;
	} * targets;
	size_t count;
	struct missing_backend *missing;
	size_t nmissing;
};

/* Opens the backends the patterns can select (all when there are none) and keeps the
 * targets one of the patterns matches. A backend that is unavailable, or whose devices
 * cannot be listed, is kept in `missing` with why: not an error, since the others still
 * run. The cases and options are what every run of the selection runs. */
void selection_open(struct selection *sel, char *const *patterns, size_t npatterns,
		    struct test_case *const *cases, size_t ncases, const struct run_options *opt,
		    unsigned timeout_s);
const struct target *selection_target(const struct selection *sel, size_t i);
/* Whether selected target i can do `what`; whether any selected target can. */
bool selection_can(const struct selection *sel, size_t i, enum capability what);
bool selection_any_can(const struct selection *sel, enum capability what);
/* Runs every case on selected target i, handing each result to emit(). */
void selection_run(struct selection *sel, size_t i, void (*emit)(void *ctx, struct result *r),
		   void *ctx);
/* Runs the cases from `from` up to (not including) `to` on selected target i. */
void selection_run_cases(struct selection *sel, size_t i, size_t from, size_t to,
			 void (*emit)(void *ctx, struct result *r), void *ctx);
/* Ends the workers that wait for a first target (dispatch_release_idle), before the run is
 * shared out among copies of this process. */
void selection_release_idle(struct selection *sel);
/* What missing backend m is called where a target is named: its one target (oclgrind),
 * else the backend's name. */
const char *selection_missing_name(const struct selection *sel, size_t m);
/* Says which backends the run asked for cannot run: under TAP a skipped test for each
 * case, so the gap shows in the test log; a note on stderr elsewhere. */
void selection_report_missing(const struct selection *sel, struct reporter *rp,
			      struct test_case *const *cases, size_t ncases);
/* The dispatcher of selected target i, for work beyond running cases on it. */
struct dispatcher *selection_dispatcher(const struct selection *sel, size_t i, size_t *index);
void selection_free(struct selection *sel);
/* For a --device pattern that selects nothing: "; the targets here are pocl-cpu and
 * oclgrind; did you mean 'pocl-cpu'?", or "" where none is near. The caller frees it. */
char *selection_suggest(const char *pattern);

#endif
