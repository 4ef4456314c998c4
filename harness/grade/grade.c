/* grade.c - grades one submission: its kernels' signatures, then every check's runs. */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/util.h"
#include "case/testcase.h"
#include "exec/select.h"
#include "findings/advice.h"
#include "grade/grade.h"

/* Failing runs a check reports in detail; the rest are counted. */
#define MAX_REPORTED_RUNS 3

/* One run of the submission, kept so that checks asking for the same run share it (a
 * race check and a memory check read the same simulator run). */
struct cached_run {
	bool simulated;
	const char *case_path;
	struct shape n, l;
	struct result r;
};

struct grader {
	const struct assignment *a;
	const struct grade_options *opt;
	const char *path; /* the submission */
	unsigned wall_s;
	struct cached_run *cache;
	size_t ncache;
};

double grade_round(double points)
{
	return round(points * 100) / 100;
}

static void take_result(void *ctx, struct result *r)
{
	struct result *out = ctx;
	/* A failed build ends the run before it starts: it is the one result that counts. */
	if (out->case_name && out->verdict != VERDICT_PASS)
		return;
	result_free(out);
	*out = *r;
	*r = (struct result){ 0 };
}

/* The limits every worker of this grading runs under. */
static struct run_options limited(const struct grader *g)
{
	return (struct run_options){ .repeat = 1,
				     .cpu_limit_s = g->a->cpu_s,
				     .address_space_limit = g->a->address_space };
}

/* Runs `tc` once at (n, l) on the target named `target`, in a worker process of its own
 * (the one that lists the devices runs it). */
static void run_fresh(const struct grader *g, const char *target, struct test_case *tc,
		      const struct shape *n, const struct shape *l, unsigned repeat,
		      struct result *out)
{
	struct run_options opt = limited(g);
	opt.sizes = n;
	opt.nsizes = 1;
	opt.locals = l;
	opt.nlocals = 1;
	opt.repeat = repeat;
	char *patterns[] = { (char *)target };
	struct selection sel;
	selection_open(&sel, patterns, 1, &tc, 1, &opt, g->wall_s);
	*out = (struct result){ 0 };
	if (sel.count > 0)
		selection_run(&sel, 0, take_result, out);
	if (out->case_name == NULL) {
		*out = (struct result){ .case_name = xstrdup(tc->name),
					.case_path = xstrdup(tc->path),
					.target = xstrdup(target),
					.n = *n,
					.l = *l };
		result_set_diag(out, VERDICT_CASE_ERROR, g->path, 0, 0, "%s cannot run here%s%s",
				target, sel.nmissing ? ": " : "",
				sel.nmissing ? sel.missing[0].reason : "");
	}
	selection_free(&sel);
}

/* Takes the timing lock: exclusive around timed runs, shared around every other run, so
 * that no grader's run competes for the device with another's timed one. Returns the
 * descriptor to close, or -1 (no lock). */
static int take_lock(const char *path, int how)
{
	if (path == NULL)
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0)
		while (flock(fd, how) < 0)
			;
	return fd;
}

static void drop_lock(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* The result of one run of the submission, from an earlier check where it ran before. The
 * result stays valid until the next call. */
static const struct result *run_once(struct grader *g, bool simulated, const char *case_path,
				     struct test_case *tc, const struct shape *n,
				     const struct shape *l)
{
	for (size_t i = 0; i < g->ncache; i++) {
		const struct cached_run *c = &g->cache[i];
		if (c->simulated == simulated && strcmp(c->case_path, case_path) == 0 &&
		    shape_equal(&c->n, n) && shape_equal(&c->l, l))
			return &c->r;
	}
	g->cache = xreallocarray(g->cache, g->ncache + 1, sizeof *g->cache);
	struct cached_run *c = &g->cache[g->ncache++];
	*c = (struct cached_run){
		.simulated = simulated, .case_path = case_path, .n = *n, .l = *l
	};
	int lock = take_lock(g->opt->speed_lock, LOCK_SH);
	run_fresh(g, simulated ? g->opt->simulator : g->opt->device, tc, n, l, 1, &c->r);
	drop_lock(lock);
	return &c->r;
}

/* The case of check `c`, with the submission in place of its kernels where `substitute`.
 * NULL (with the reason in cg) when it no longer loads. */
static struct test_case *check_case(const struct grader *g, const struct grade_check *c,
				    bool substitute, struct check_grade *cg)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(c->case_path, &diags);
	if (tc == NULL) {
		diag_list_move(&cg->diags, &diags);
		return NULL;
	}
	if (substitute)
		assignment_substitute(g->a, tc, g->path);
	return tc;
}

/* Adds what a failed run says to the check's diagnostics: the simulator's findings at the
 * submission's lines, or the verdict's message, tagged with the run's sizes. */
static void note_failure(struct check_grade *cg, const struct result *r, unsigned forbid,
			 const char *path)
{
	char tag[SHAPE_RUN_TEXT_MAX + 4] = "", at[SHAPE_RUN_TEXT_MAX];
	if (r->n.dims > 0)
		snprintf(tag, sizeof tag, " (%s)", shape_run_text(&r->n, &r->l, ", ", at));
	bool any = false;
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		if (!(forbid & (1u << f->kind)) || f->severity != DIAG_ERROR)
			continue;
		struct strbuf msg = { 0 }, note = { 0 };
		finding_headline(&msg, f);
		strbuf_puts(&msg, tag);
		diag_add(&cg->diags, DIAG_ERROR, f->file ? f->file : path, f->at.line, f->at.col,
			 "%s", msg.data);
		finding_note(&note, f);
		if (note.len > 0)
			diag_add(&cg->diags, DIAG_NOTE, f->file ? f->file : path,
				 f->other.line > 0 ? f->other.line : f->at.line,
				 f->other.line > 0 ? f->other.col : f->at.col, "%s", note.data);
		/* Where the fix goes, in a sentence the student can act on. */
		const char *file = f->file ? f->file : path;
		struct advice a;
		if (advice_for_file(f, file, &a)) {
			diag_add(&cg->diags, DIAG_NOTE, file, a.line ? a.line : f->at.line,
				 a.line ? a.col : f->at.col, "%s", a.text);
			advice_free(&a);
		}
		strbuf_free(&msg);
		strbuf_free(&note);
		any = true;
	}
	if (any)
		return;
	/* A build error is at the submission's line; other messages are about the run. */
	bool at_line = r->verdict == VERDICT_BUILD_ERROR && r->line > 0;
	diag_add(&cg->diags, DIAG_ERROR, at_line && r->file ? r->file : path, at_line ? r->line : 0,
		 at_line ? r->col : 0, "%s: %s%s", verdict_name(r->verdict),
		 r->message ? r->message : "no message", tag);
}

/* Whether a diagnostic saying the same is already there: the same race found at two sizes
 * is one mistake, whatever its count and run tag in parentheses. */
static bool seen(const struct diag_list *list, size_t from, const struct diag *d)
{
	size_t len = strcspn(d->message, "(");
	for (size_t i = 0; i < from; i++) {
		const struct diag *o = &list->items[i];
		if (o->line == d->line && o->col == d->col && o->severity == d->severity &&
		    strcmp(o->file, d->file) == 0 && strcspn(o->message, "(") == len &&
		    strncmp(o->message, d->message, len) == 0)
			return true;
	}
	return false;
}

static void drop_repeats(struct diag_list *list)
{
	size_t kept = 0;
	for (size_t i = 0; i < list->count; i++) {
		if (seen(list, kept, &list->items[i])) {
			free(list->items[i].file);
			free(list->items[i].message);
			continue;
		}
		list->items[kept++] = list->items[i];
	}
	list->count = kept;
}

/* Whether a run passes check `c`: right output, or none of the forbidden findings. */
static bool run_passes(const struct grade_check *c, const struct result *r)
{
	if (c->kind != GRADE_SIMULATE)
		return r->verdict == VERDICT_PASS;
	if (r->verdict == VERDICT_BUILD_ERROR || r->verdict == VERDICT_CASE_ERROR ||
	    r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_CRASH)
		return false; /* the simulator could not judge the kernel */
	for (size_t i = 0; i < r->findings.count; i++)
		if ((c->forbid & (1u << r->findings.items[i].kind)) &&
		    r->findings.items[i].severity == DIAG_ERROR)
			return false;
	return true;
}

/* A correct or simulate check: every size by every work-group size. */
static void grade_runs(struct grader *g, const struct grade_check *c, struct check_grade *cg)
{
	struct test_case *tc = check_case(g, c, true, cg);
	if (tc == NULL) {
		cg->summary = xasprintf("its case does not load");
		return;
	}
	bool sim = c->kind == GRADE_SIMULATE;
	const struct shape *sizes = c->sizes ? c->sizes : sim ? tc->sim_sizes : tc->sizes;
	size_t nsizes = c->sizes ? c->nsizes : sim ? tc->nsim_sizes : tc->nsizes;
	const struct shape *locals = c->locals		      ? c->locals
				     : sim && tc->nsim_locals ? tc->sim_locals
							      : tc->locals;
	size_t nlocals = c->locals		  ? c->nlocals
			 : sim && tc->nsim_locals ? tc->nsim_locals
						  : tc->nlocals;
	size_t reported = 0, failed = 0;
	bool stopped = false; /* a run timed out: the rest of the check would too */
	for (size_t i = 0; i < nsizes; i++) {
		for (size_t j = 0; j < nlocals; j++) {
			if (stopped) {
				cg->runs++;
				continue;
			}
			const struct result *r =
				run_once(g, sim, c->case_path, tc, &sizes[i], &locals[j]);
			if (r->verdict == VERDICT_SKIP)
				continue; /* the device cannot run this work-group size */
			cg->runs++;
			if (run_passes(c, r)) {
				cg->passed++;
				continue;
			}
			failed++;
			cg->verdicts |= 1u << r->verdict;
			if (reported++ < MAX_REPORTED_RUNS)
				note_failure(cg, r, sim ? c->forbid : 0, g->path);
			if (r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_BUILD_ERROR)
				stopped = true;
		}
	}
	drop_repeats(&cg->diags);
	if (failed > MAX_REPORTED_RUNS)
		diag_add(&cg->diags, DIAG_NOTE, g->path, 0, 0,
			 "%zu more failing run%s of this check not shown",
			 failed - MAX_REPORTED_RUNS, failed - MAX_REPORTED_RUNS == 1 ? "" : "s");
	cg->points = cg->runs ? grade_round(c->points * (double)cg->passed / (double)cg->runs) : 0;
	if (sim)
		cg->summary = xasprintf("%zu of %zu simulated runs free of what it forbids",
					cg->passed, cg->runs);
	else
		cg->summary = xasprintf("%zu of %zu runs right", cg->passed, cg->runs);
	if (stopped) {
		char *counted = cg->summary;
		cg->summary = xasprintf("%s; the runs after a timeout or build error were not run",
					counted);
		free(counted);
	}
	case_free(tc);
}

/* The reference of a speed check: the case named by `against`, else the check's own
 * case, each with its own kernels. */
static struct test_case *speed_reference(const struct grader *g, const struct grade_check *c,
					 struct check_grade *cg)
{
	if (c->against_path == NULL)
		return check_case(g, c, false, cg);
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(c->against_path, &diags);
	diag_list_move(&cg->diags, &diags);
	return tc;
}

/* A speed check: the reference kernel and the submission timed in turns, at the same
 * size, the fastest of `rounds` runs of each kept, since noise only ever adds time. */
static void grade_speed(struct grader *g, const struct grade_check *c, struct check_grade *cg)
{
	struct test_case *mine = check_case(g, c, true, cg);
	struct test_case *ref = mine ? speed_reference(g, c, cg) : NULL;
	if (ref == NULL) {
		cg->summary = xasprintf("its case does not load");
		case_free(mine);
		return;
	}
	const struct shape *n = &c->sizes[0], *l = &c->locals[0];
	char at[SHAPE_RUN_TEXT_MAX];
	shape_run_text(n, l, ", ", at);
	uint64_t best_ref = UINT64_MAX, best_mine = UINT64_MAX;
	int lock = take_lock(g->opt->speed_lock, LOCK_EX);
	for (unsigned round = 0; round < c->rounds; round++) {
		struct result r_ref, r_mine;
		run_fresh(g, g->opt->device, ref, n, l, c->repeat, &r_ref);
		run_fresh(g, g->opt->device, mine, n, l, c->repeat, &r_mine);
		bool ok = r_ref.verdict == VERDICT_PASS && r_mine.verdict == VERDICT_PASS;
		if (!ok) {
			cg->runs = 1;
			cg->verdicts |= 1u << r_mine.verdict;
			if (r_ref.verdict != VERDICT_PASS)
				cg->summary = xasprintf("not timed: the reference kernel gave %s "
							"(%s), a fault of the assignment",
							verdict_name(r_ref.verdict), at);
			else {
				cg->summary = xasprintf("not timed: the submission gave %s at %s",
							verdict_name(r_mine.verdict), at);
				note_failure(cg, &r_mine, 0, g->path);
			}
		}
		if (r_ref.kernel_ns < best_ref)
			best_ref = r_ref.kernel_ns;
		if (r_mine.kernel_ns < best_mine)
			best_mine = r_mine.kernel_ns;
		result_free(&r_ref);
		result_free(&r_mine);
		if (!ok)
			break;
	}
	drop_lock(lock);
	if (cg->summary == NULL) {
		cg->runs = 1;
		cg->speed = best_mine > 0 ? (double)best_ref / (double)best_mine : 0;
		double share = (cg->speed - c->none) / (c->full - c->none);
		share = share < 0 ? 0 : share > 1 ? 1 : share;
		/* Whole points: timing noise near a point's edge moves no fraction of one. */
		cg->points = round(c->points * share);
		cg->passed = cg->points >= c->points;
		cg->summary = xasprintf(
			"%.2f of the reference's speed (%.3f ms against %.3f ms of %s "
			"for %u launches at %s)",
			cg->speed, best_mine / 1e6, best_ref / 1e6, ref->name, c->repeat, at);
	}
	case_free(mine);
	case_free(ref);
}

bool check_grade_passed(const struct grade_check *c, const struct check_grade *cg)
{
	return cg->runs > 0 && cg->points >= c->points;
}

/* Builds the submission and compares each declared kernel's parameters; on failure
 * fills the blocker. */
static bool kernels_match(struct grader *g, struct student_grade *sg)
{
	struct run_options opt = limited(g);
	char *patterns[] = { (char *)g->opt->device };
	struct selection sel;
	selection_open(&sel, patterns, 1, NULL, 0, &opt, g->wall_s);
	bool ok = true;
	if (sel.count == 0) {
		sg->blocker = xasprintf("%s cannot run here%s%s", g->opt->device,
					sel.nmissing ? ": " : "",
					sel.nmissing ? sel.missing[0].reason : "");
		sg->blocker_verdict = VERDICT_CASE_ERROR;
		selection_free(&sel);
		return false;
	}
	size_t index;
	struct dispatcher *d = selection_dispatcher(&sel, 0, &index);
	int lock = take_lock(g->opt->speed_lock, LOCK_SH);
	for (size_t k = 0; k < g->a->nkernels && ok; k++) {
		const struct kernel_proto *want = &g->a->kernels[k];
		struct kernel_sig sig = { 0 };
		struct result failure = { 0 };
		if (dispatch_inspect(d, index, g->path, want->name, &sig, &failure) < 0) {
			ok = false;
			sg->blocker_verdict = failure.verdict;
			if (failure.verdict == VERDICT_CASE_ERROR)
				sg->blocker =
					xasprintf("no kernel named %s: the assignment asks for "
						  "'%s'",
						  want->name, want->text);
			else
				sg->blocker = xasprintf("%s: %s", verdict_name(failure.verdict),
							failure.message ? failure.message : "");
			if (failure.verdict == VERDICT_BUILD_ERROR && failure.line > 0)
				diag_add(&sg->blocker_diags, DIAG_ERROR, g->path, failure.line,
					 failure.col, "%s", failure.message);
			sg->blocker_log = failure.detail;
			failure.detail = NULL;
		} else {
			char *why = kernel_sig_mismatch(&want->sig, &sig);
			if (why) {
				ok = false;
				sg->blocker_verdict = VERDICT_CASE_ERROR;
				sg->blocker = xasprintf("kernel %s has other parameters than the "
							"assignment's '%s': %s",
							want->name, want->text, why);
				free(why);
			}
		}
		result_free(&failure);
		kernel_sig_free(&sig);
	}
	drop_lock(lock);
	selection_free(&sel);
	return ok;
}

void student_grade_init(const struct assignment *a, const char *student, const char *path,
			struct student_grade *sg)
{
	*sg = (struct student_grade){ .student = xstrdup(student),
				      .submission = path ? xstrdup(path) : NULL,
				      .checks = xcalloc(a->nchecks + 1, sizeof *sg->checks),
				      .nchecks = a->nchecks };
}

/* Every check of a blocked submission says why it did not run. */
static void mark_not_run(const struct assignment *a, struct student_grade *sg)
{
	for (size_t i = 0; i < a->nchecks; i++) {
		sg->checks[i].points = 0;
		free(sg->checks[i].summary);
		sg->checks[i].summary = xasprintf("not run: %s", sg->blocker);
	}
	sg->total = 0;
}

void grade_blocked(const struct assignment *a, const char *student, const char *path,
		   enum verdict verdict, const char *why, struct student_grade *sg)
{
	student_grade_init(a, student, path, sg);
	sg->blocker = xstrdup(why);
	sg->blocker_verdict = verdict;
	mark_not_run(a, sg);
}

void grade_submission(const struct assignment *a, const struct grade_options *opt,
		      const char *student, const char *path, const char *problem,
		      struct student_grade *sg)
{
	if (problem || path == NULL || access(path, R_OK) != 0) {
		char *why = problem ? xstrdup(problem)
			    : path  ? xasprintf("cannot read %s", path)
				    : xstrdup("no kernel file to grade");
		grade_blocked(a, student, path, VERDICT_CASE_ERROR, why, sg);
		free(why);
		return;
	}
	student_grade_init(a, student, path, sg);
	struct grader g = {
		.a = a, .opt = opt, .path = path, .wall_s = opt->wall_s ? opt->wall_s : a->wall_s
	};
	if (kernels_match(&g, sg)) {
		for (size_t i = 0; i < a->nchecks; i++) {
			const struct grade_check *c = &a->checks[i];
			if (c->kind == GRADE_SPEED)
				grade_speed(&g, c, &sg->checks[i]);
			else
				grade_runs(&g, c, &sg->checks[i]);
			sg->total += sg->checks[i].points;
		}
		sg->total = grade_round(sg->total);
	} else {
		mark_not_run(a, sg);
	}
	for (size_t i = 0; i < g.ncache; i++)
		result_free(&g.cache[i].r);
	free(g.cache);
}

void student_grade_free(struct student_grade *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->nchecks; i++) {
		free(g->checks[i].summary);
		diag_list_free(&g->checks[i].diags);
	}
	free(g->checks);
	free(g->student);
	free(g->submission);
	free(g->blocker);
	free(g->blocker_log);
	diag_list_free(&g->blocker_diags);
	*g = (struct student_grade){ 0 };
}
