/* select.c - the targets a run visits, and the backends that cannot run here. */
#include "config.h"

#include "exec/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/annotate.h"
#include "base/util.h"
#include "exec/devname.h"
#include "exec/sandbox.h"

/* Whether `pattern` is exactly the one target name of a backend other than b: such a
 * pattern can select nothing of b's. */
static bool names_another_backend(const char *pattern, const struct backend *b)
{
	for (size_t i = 0; i < backend_count; i++)
		if (backends[i] != b && backends[i]->fixed_target &&
		    strcmp(pattern, backends[i]->fixed_target) == 0)
			return true;
	return false;
}

/* Whether `pattern` may select targets of b at all: a backend whose targets run only
 * where named (racecheck) needs its name in the pattern. */
static bool pattern_reaches(const char *pattern, const struct backend *b)
{
	return !b->named_only || strstr(pattern, b->name) != NULL;
}

/* Whether any pattern could select a target of b, judged before listing anything, so a
 * run that names one backend starts no other. */
static bool may_select(const struct backend *b, char *const *patterns, size_t npatterns)
{
	if (npatterns == 0)
		return !b->named_only;
	for (size_t p = 0; p < npatterns; p++) {
		if (!pattern_reaches(patterns[p], b))
			continue;
		if (b->fixed_target ? devname_matches(patterns[p], b->fixed_target, b->fixed_type)
				    : !names_another_backend(patterns[p], b))
			return true;
	}
	return false;
}

static void add_missing(struct selection *sel, const struct backend *b, char *reason)
{
	sel->missing = xreallocarray(sel->missing, sel->nmissing + 1, sizeof *sel->missing);
	sel->missing[sel->nmissing++] = (struct missing_backend){ b, reason };
}

/* Says once a process, on stderr, where the workers that run kernels natively are not
 * confined in full: switched off, or a Linux kernel without Landlock or seccomp. */
static void note_unconfined(const struct run_options *opt)
{
	static bool said;
	if (said || opt->unsandboxed)
		return;
	said = true;
	if (sandbox_switched_off()) {
		fprintf(stderr, "clharness: note: kernels run outside the sandbox: "
				"CLHARNESS_SANDBOX=off switches it off\n");
		return;
	}
	struct sandbox_support support;
	sandbox_probe(&support);
	char *shortfall = sandbox_shortfall(&support);
	if (shortfall)
		fprintf(stderr, "clharness: note: kernels run in a partial sandbox: %s\n",
			shortfall);
	free(shortfall);
}

void selection_open(struct selection *sel, char *const *patterns, size_t npatterns,
		    struct test_case *const *cases, size_t ncases, const struct run_options *opt,
		    unsigned timeout_s)
{
	*sel = (struct selection){ .dispatchers =
					   xcalloc(backend_count, sizeof *sel->dispatchers) };
	for (size_t b = 0; b < backend_count; b++) {
		const struct backend *backend = backends[b];
		if (!may_select(backend, patterns, npatterns))
			continue;
		const char *why = backend->unavailable ? backend->unavailable() : NULL;
		if (why) {
			add_missing(sel, backend, xstrdup(why));
			continue;
		}
		if (backend_can(backend, CAN_RUN_NATIVE_CODE))
			note_unconfined(opt);
		char *cause = NULL;
		if (dispatch_open(backend, cases, ncases, opt, timeout_s, &sel->dispatchers[b],
				  &cause) < 0) {
			add_missing(sel, backend, cause);
			continue;
		}
		struct dispatcher *d = sel->dispatchers[b];
		for (size_t i = 0; i < dispatch_target_count(d); i++) {
			const struct target *t = dispatch_target(d, i);
			bool wanted = npatterns == 0;
			for (size_t p = 0; p < npatterns && !wanted; p++)
				wanted = pattern_reaches(patterns[p], backend) &&
					 devname_matches(patterns[p], t->name, t->type);
			if (!wanted)
				continue;
			sel->targets =
				xreallocarray(sel->targets, sel->count + 1, sizeof *sel->targets);
			sel->targets[sel->count].d = d;
			sel->targets[sel->count++].index = i;
		}
	}
}

const struct target *selection_target(const struct selection *sel, size_t i)
{
	return dispatch_target(sel->targets[i].d, sel->targets[i].index);
}

bool selection_can(const struct selection *sel, size_t i, enum capability what)
{
	return target_can(selection_target(sel, i), what);
}

bool selection_any_can(const struct selection *sel, enum capability what)
{
	for (size_t i = 0; i < sel->count; i++)
		if (selection_can(sel, i, what))
			return true;
	return false;
}

void selection_run(struct selection *sel, size_t i, void (*emit)(void *ctx, struct result *r),
		   void *ctx)
{
	dispatch_run(sel->targets[i].d, sel->targets[i].index, emit, ctx);
}

void selection_run_cases(struct selection *sel, size_t i, size_t from, size_t to,
			 void (*emit)(void *ctx, struct result *r), void *ctx)
{
	dispatch_run_cases(sel->targets[i].d, sel->targets[i].index, from, to, emit, ctx);
}

void selection_release_idle(struct selection *sel)
{
	for (size_t b = 0; b < backend_count && sel->dispatchers; b++)
		if (sel->dispatchers[b])
			dispatch_release_idle(sel->dispatchers[b]);
}

struct dispatcher *selection_dispatcher(const struct selection *sel, size_t i, size_t *index)
{
	*index = sel->targets[i].index;
	return sel->targets[i].d;
}

const char *selection_missing_name(const struct selection *sel, size_t m)
{
	const struct backend *b = sel->missing[m].backend;
	return b->fixed_target ? b->fixed_target : b->name;
}

void selection_report_missing(const struct selection *sel, struct reporter *rp,
			      struct test_case *const *cases, size_t ncases)
{
	for (size_t m = 0; m < sel->nmissing; m++) {
		const struct backend *b = sel->missing[m].backend;
		const char *target = selection_missing_name(sel, m);
		/* A report without a selected target's runs (the simulator's: its races) must
		 * not read as a whole one, in SARIF, HTML or a pull request's annotations. */
		char *why = xasprintf("%s is unavailable, so nothing ran on it: %s", target,
				      sel->missing[m].reason);
		if (rp->findlog)
			findlog_incomplete(rp->findlog, why);
		annotate_diag(NULL, 0, 0, DIAG_WARNING, why);
		free(why);
		if (rp->format != REPORT_TAP) {
			rp->unavailable++;
			fprintf(stderr,
				"clharness: note: %s is unavailable, so nothing runs on it: %s\n",
				target, sel->missing[m].reason);
			continue;
		}
		for (size_t c = 0; c < ncases; c++) {
			struct result r = { .case_name = cases[c]->name,
					    .case_path = cases[c]->path,
					    .target = (char *)target,
					    .backend = (char *)b->name,
					    .verdict = VERDICT_SKIP,
					    .output = VERDICT_SKIP };
			r.message =
				xasprintf("%s is unavailable: %s", target, sel->missing[m].reason);
			report_result(rp, &r);
			free(r.message);
		}
	}
}

void selection_free(struct selection *sel)
{
	for (size_t b = 0; b < backend_count && sel->dispatchers; b++)
		dispatch_close(sel->dispatchers[b]);
	for (size_t i = 0; i < sel->nmissing; i++)
		free(sel->missing[i].reason);
	free(sel->missing);
	free(sel->dispatchers);
	free(sel->targets);
	*sel = (struct selection){ 0 };
}

char *selection_suggest(const char *pattern)
{
	struct run_options opt = { .repeat = 1 };
	struct selection all;
	selection_open(&all, NULL, 0, NULL, 0, &opt, 60);
	struct strbuf out = { 0 };
	const char **names = xcalloc(all.count + 1, sizeof *names);
	for (size_t t = 0; t < all.count; t++) {
		names[t] = selection_target(&all, t)->name;
		strbuf_printf(&out, "%s%s", t == 0 ? "; the targets here are " : ", ", names[t]);
	}
	const char *nearest = nearest_name(pattern, names, all.count);
	if (nearest)
		strbuf_printf(&out, "; did you mean '%s'?", nearest);
	free(names);
	selection_free(&all);
	char *text = strbuf_take(&out);
	return text ? text : xstrdup("");
}
