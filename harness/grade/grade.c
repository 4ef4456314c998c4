/* grade.c - grades one submission: its kernels' signatures, then every check's runs. */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/util.h"
#include "case/testcase.h"
#include "exec/progcache.h"
#include "exec/sandbox.h"
#include "exec/select.h"
#include "findings/advice.h"
#include "grade/grade.h"
#include "grade/includes.h"
#include "source/nativecode.h"

/* Failing runs a check reports in detail; the rest are counted. */
#define MAX_REPORTED_RUNS 3

/* The runs of one check on its target, in the order the runner makes them. */
struct check_runs {
	struct test_case *tc; /* the check's case, the submission in place, its runs the check's */
	size_t planned;	      /* sizes x work-group sizes */
	struct result *results;
	size_t count;
	size_t same_as; /* an earlier check with the same runs, whose results these are */
};

struct grader {
	const struct assignment *a;
	const struct grade_options *opt;
	const char *path;    /* the submission */
	const char *options; /* its build options: its own folder to include from */
	unsigned wall_s;
	struct check_runs *runs; /* one per check */
	/* The first run that hung, "N=65536, L=64 on pocl-cpu": every run after it, on any
	 * target, is left out, since each would wait out the limit too. NULL: none hung. */
	char *hang;
	/* Whether that run was a hidden check's: a visible check's summary then names no
	 * launch, which would tell the student a hidden check's sizes. */
	bool hang_hidden;
	/* The submission's own cache (run_options.private_cache); NULL where it runs
	 * unconfined. */
	char *private_cache;
};

double grade_round(double points)
{
	return round(points * 100) / 100;
}

/* The limits every worker of this grading runs under. Every run is timed: the speed
 * check takes its launch count from the time one launch took in the correct checks' runs,
 * which must so be of the code it times, and the run limits come from the reference
 * kernel's time. */
static struct run_options limited(const struct grader *g)
{
	return (struct run_options){ .repeat = 1,
				     .cpu_limit_s = g->a->cpu_s,
				     .address_space_limit = g->a->address_space,
				     .file_size_limit = GRADE_FILE_SIZE_LIMIT,
				     .timed = true,
				     .unsandboxed = g->opt->unsandboxed,
				     .untrusted = true,
				     .private_cache = g->private_cache };
}

/* Removes the caches of the student's earlier hand-ins in `folder`, all but `keep`. */
static void drop_earlier_caches(const char *folder, const char *student, const char *keep)
{
	char **entries = NULL;
	long n = dir_entries(folder, false, &entries);
	size_t len = strlen(student);
	for (long i = 0; i < n; i++) {
		const char *name = strrchr(entries[i], '/');
		name = name ? name + 1 : entries[i];
		if (strncmp(name, student, len) == 0 && name[len] == '-' &&
		    strcmp(entries[i], keep) != 0)
			remove_tree(entries[i]);
	}
	strings_free(entries, n);
}

/* The folder of a submission's own cache: what its code leaves in its drivers' caches
 * then reaches no other student's runs, while a grading again of the same file finds
 * its programs built. Beside the program cache, one a student and hand-in (the hand-ins
 * before are dropped), or a temporary one where caching is off (*temporary then).
 * NULL where its workers run unconfined, which no cache keeps from the others. */
static char *submission_cache(const struct assignment *a, const struct grade_options *opt,
			      const struct submission *sub, uint64_t source_hash, bool *temporary)
{
	*temporary = false;
	if (!sandbox_wanted(true, opt->unsandboxed))
		return NULL;
	char *root = progcache_beside("submissions");
	if (root) {
		char *folder = xasprintf("%s/%s", root, a->name);
		char *dir = xasprintf("%s/%s-%016llx", folder, sub->student,
				      (unsigned long long)source_hash);
		free(root);
		if (make_dirs(dir)) {
			drop_earlier_caches(folder, sub->student, dir);
			free(folder);
			return dir;
		}
		free(folder);
		free(dir);
	}
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/clharness-submission-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		free(dir);
		return NULL;
	}
	*temporary = true;
	return dir;
}

/* The CPU-time limit of a worker that makes `runs` runs and builds: the assignment's
 * limit is a run's, and CPU time adds up over a worker's life. */
static unsigned worker_cpu_limit(const struct grader *g, size_t runs)
{
	uint64_t limit = (uint64_t)g->a->cpu_s * (runs ? runs : 1);
	return g->a->cpu_s == 0 ? 0 : limit > UINT_MAX ? UINT_MAX : (unsigned)limit;
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

/* Replaces a list of shapes with a copy of another. */
static void set_shapes(struct shape **list, size_t *count, const struct shape *from, size_t n)
{
	free(*list);
	*list = xcalloc(n + 1, sizeof **list);
	memcpy(*list, from, n * sizeof *from);
	*count = n;
}

/* Makes tc run exactly sizes x locals on any target, under `name`. */
static void set_runs(struct test_case *tc, const char *name, const struct shape *sizes,
		     size_t nsizes, const struct shape *locals, size_t nlocals)
{
	set_shapes(&tc->sizes, &tc->nsizes, sizes, nsizes);
	set_shapes(&tc->sim_sizes, &tc->nsim_sizes, sizes, nsizes);
	set_shapes(&tc->locals, &tc->nlocals, locals, nlocals);
	set_shapes(&tc->sim_locals, &tc->nsim_locals, locals, nlocals);
	free(tc->pair_sizes);
	free(tc->pair_locals);
	tc->pair_sizes = tc->pair_locals = NULL;
	tc->npairs = 0;
	free(tc->name);
	tc->name = xstrdup(name);
}

/* The sizes and work-group sizes check `c` runs `tc` at: its own, else the case's (a
 * simulate check's: the case's simulated ones). */
static void check_shapes(const struct grade_check *c, const struct test_case *tc,
			 const struct shape **sizes, size_t *nsizes, const struct shape **locals,
			 size_t *nlocals)
{
	bool sim = c->kind == GRADE_SIMULATE;
	*sizes = c->sizes ? c->sizes : sim ? tc->sim_sizes : tc->sizes;
	*nsizes = c->sizes ? c->nsizes : sim ? tc->nsim_sizes : tc->nsizes;
	bool sim_locals = sim && tc->nsim_locals;
	*locals = c->locals ? c->locals : sim_locals ? tc->sim_locals : tc->locals;
	*nlocals = c->locals ? c->nlocals : sim_locals ? tc->nsim_locals : tc->nlocals;
}

/* Makes tc, the case of check `c`, run what the check runs, named by the check (a speed
 * check: its one size and work-group size). Returns the number of runs. */
static size_t set_check_runs(struct test_case *tc, const struct grade_check *c)
{
	const struct shape *sizes, *locals;
	size_t nsizes, nlocals;
	check_shapes(c, tc, &sizes, &nsizes, &locals, &nlocals);
	if (c->kind == GRADE_SPEED)
		nsizes = nlocals = 1;
	/* Copies first: the lists may be the case's own, which set_runs replaces. */
	struct shape *own_sizes = xcalloc(nsizes + 1, sizeof *own_sizes);
	struct shape *own_locals = xcalloc(nlocals + 1, sizeof *own_locals);
	memcpy(own_sizes, sizes, nsizes * sizeof *sizes);
	memcpy(own_locals, locals, nlocals * sizeof *locals);
	set_runs(tc, c->name, own_sizes, nsizes, own_locals, nlocals);
	free(own_sizes);
	free(own_locals);
	return nsizes * nlocals;
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
	if (substitute) {
		assignment_substitute(g->a, tc, g->path);
		if (*g->options) {
			char *own = tc->options;
			tc->options =
				xasprintf("%s%s%s", own ? own : "", own ? " " : "", g->options);
			free(own);
		}
	}
	return tc;
}

/* Whether two checks make the same runs (a race check and a memory check read one
 * simulator run). */
static bool same_runs(const struct grade_check *a, const struct check_runs *ra,
		      const struct grade_check *b, const struct check_runs *rb)
{
	if ((a->kind == GRADE_SIMULATE) != (b->kind == GRADE_SIMULATE) ||
	    strcmp(a->case_path, b->case_path) != 0 || ra->tc->nsizes != rb->tc->nsizes ||
	    ra->tc->nlocals != rb->tc->nlocals)
		return false;
	for (size_t i = 0; i < ra->tc->nsizes; i++)
		if (!shape_equal(&ra->tc->sizes[i], &rb->tc->sizes[i]))
			return false;
	for (size_t i = 0; i < ra->tc->nlocals; i++)
		if (!shape_equal(&ra->tc->locals[i], &rb->tc->locals[i]))
			return false;
	return true;
}

/* Loads every correct and simulate check's case with the submission in place and the
 * check's runs; a check whose case does not load keeps tc NULL and says so. */
static void plan_checks(struct grader *g, struct student_grade *sg)
{
	g->runs = xcalloc(g->a->nchecks + 1, sizeof *g->runs);
	for (size_t i = 0; i < g->a->nchecks; i++) {
		const struct grade_check *c = &g->a->checks[i];
		struct check_runs *cr = &g->runs[i];
		cr->same_as = i;
		if (c->kind == GRADE_SPEED)
			continue;
		cr->tc = check_case(g, c, true, &sg->checks[i]);
		if (cr->tc == NULL)
			continue;
		cr->planned = set_check_runs(cr->tc, c);
		for (size_t j = 0; j < i; j++)
			if (g->runs[j].tc && g->runs[j].same_as == j &&
			    same_runs(&g->a->checks[j], &g->runs[j], c, cr)) {
				cr->same_as = j;
				break;
			}
	}
}

/* Where a phase's results go: the check whose case gave it. */
static void take_phase_result(void *ctx, struct result *r)
{
	struct grader *g = ctx;
	for (size_t i = 0; i < g->a->nchecks; i++) {
		struct check_runs *cr = &g->runs[i];
		if (cr->tc == NULL || cr->same_as != i || strcmp(cr->tc->name, r->case_name) != 0)
			continue;
		if (r->verdict == VERDICT_TIMEOUT && g->hang == NULL) {
			char at[SHAPE_RUN_TEXT_MAX];
			g->hang_hidden = g->a->checks[i].hidden;
			g->hang = r->n.dims > 0 ? xasprintf("%s on %s",
							    shape_run_text(&r->n, &r->l, ", ", at),
							    r->target)
						: xasprintf("its build on %s", r->target);
		}
		cr->results = xreallocarray(cr->results, cr->count + 1, sizeof *cr->results);
		cr->results[cr->count++] = *r;
		*r = (struct result){ 0 };
		return;
	}
}

/* Runs every correct check (on the device) or every simulate check (on the simulator)
 * in one worker, which a hang or crash replaces: a worker's start, the driver's and the
 * submission's build are paid once, not at every run. */
static void run_phase(struct grader *g, bool simulated)
{
	size_t n = 0, runs = 0;
	struct test_case **cases = xcalloc(g->a->nchecks + 1, sizeof *cases);
	for (size_t i = 0; i < g->a->nchecks; i++)
		if (g->runs[i].tc && g->runs[i].same_as == i &&
		    (g->a->checks[i].kind == GRADE_SIMULATE) == simulated &&
		    g->a->checks[i].kind != GRADE_SPEED) {
			cases[n++] = g->runs[i].tc;
			runs += 1 + g->runs[i].planned; /* the build, then each run */
		}
	if (n == 0 || g->hang) {
		free(cases);
		return;
	}
	struct run_options opt = limited(g);
	opt.cpu_limit_s = worker_cpu_limit(g, runs);
	opt.stop_at_timeout = true;
	if (g->opt->wall_s == 0) {
		opt.run_limit_s = simulated ? g->opt->simulator_run_s : g->opt->device_run_s;
		opt.run_limit_why = simulated ? g->opt->simulator_run_why : g->opt->device_run_why;
	}
	const char *target = simulated ? g->opt->simulator : g->opt->device;
	char *patterns[] = { (char *)target };
	struct selection sel;
	int lock = take_lock(g->opt->speed_lock, LOCK_SH);
	selection_open(&sel, patterns, 1, cases, n, &opt, g->wall_s);
	if (sel.count > 0) {
		selection_run(&sel, 0, take_phase_result, g);
	} else {
		for (size_t k = 0; k < n; k++) {
			struct result r;
			r = (struct result){ .case_name = xstrdup(cases[k]->name),
					     .case_path = xstrdup(cases[k]->path),
					     .target = xstrdup(target) };
			result_set_diag(&r, VERDICT_CASE_ERROR, g->path, 0, 0,
					"%s cannot run here%s%s", target, sel.nmissing ? ": " : "",
					sel.nmissing ? sel.missing[0].reason : "");
			take_phase_result(g, &r);
		}
	}
	selection_free(&sel);
	drop_lock(lock);
	free(cases);
}

/* Where the first hang was, as check c's summary may say it: "at N=65536, L=64 on
 * pocl-cpu", or "in a hidden check" to a visible check, whose summary the student reads;
 * NULL where nothing hung. The caller frees it. */
static char *hung_where(const struct grader *g, const struct grade_check *c)
{
	if (g->hang == NULL)
		return NULL;
	return g->hang_hidden && !c->hidden ? xstrdup("in a hidden check")
					    : xasprintf("at %s", g->hang);
}

/* Whether the simulator judged run r to its end: a build or case error, a hang, a crash or
 * a run it stopped reporting in leaves no forbidden finding as no evidence of none. */
static bool simulator_judged(const struct result *r)
{
	return !(r->verdict == VERDICT_BUILD_ERROR || r->verdict == VERDICT_CASE_ERROR ||
		 r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_CRASH ||
		 result_cut_short(r));
}

/* " (N=1024, L=32)", the run a diagnostic is about, into tag; "" for a whole case's. */
static const char *run_tag(const struct result *r, char tag[SHAPE_RUN_TEXT_MAX + 4])
{
	char at[SHAPE_RUN_TEXT_MAX];
	tag[0] = '\0';
	if (r->n.dims > 0)
		snprintf(tag, SHAPE_RUN_TEXT_MAX + 4, " (%s)", shape_run_text(&r->n, &r->l, ", ", at));
	return tag;
}

/* Whether a simulate check of the assignment other than c forbids findings of `kind`:
 * a mistake's consequence is excused in c only where another check charges the mistake. */
static bool charged_elsewhere(const struct assignment *a, const struct grade_check *c,
			      enum finding_kind kind)
{
	for (size_t i = 0; i < a->nchecks; i++)
		if (&a->checks[i] != c && a->checks[i].kind == GRADE_SIMULATE &&
		    (a->checks[i].forbid & (1u << kind)))
			return true;
	return false;
}

/* Whether f is an error finding of a kind check c forbids. */
static bool forbidden(const struct grade_check *c, const struct finding *f)
{
	return (c->forbid & (1u << f->kind)) && f->severity == DIAG_ERROR && !f->suppressed;
}

/* The mistake, charged by another check, that the forbidden finding f of run r follows
 * from (finding_cause); NULL where f is a mistake of its own that c charges. */
static const struct finding *excusing_cause(const struct grader *g, const struct grade_check *c,
					    const struct result *r, const struct finding *f)
{
	const struct finding *cause = finding_cause(&r->findings, f);
	return cause && !forbidden(c, cause) && charged_elsewhere(g->a, c, cause->kind) ? cause
											   : NULL;
}

/* The race or barrier divergence of run r, charged by another check, that explains its
 * wrong output: what a race leaves in memory is undefined, so its output is evidence of
 * nothing either way. NULL: none. */
static const struct finding *wrong_output_cause(const struct grader *g, const struct grade_check *c,
						const struct result *r)
{
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		if ((f->kind == FINDING_RACE || f->kind == FINDING_DIVERGENCE) &&
		    f->severity == DIAG_ERROR && !f->suppressed && !forbidden(c, f) &&
		    charged_elsewhere(g->a, c, f->kind))
			return f;
	}
	return NULL;
}

/* How a simulated run's output stands for check c: a check that requires correct checks
 * leaves the output to them; otherwise a run earns only where the kernel did the work. */
enum simulated_output { OUTPUT_RIGHT, OUTPUT_EXCUSED, OUTPUT_WRONG };
static enum simulated_output simulated_output(const struct grader *g, const struct grade_check *c,
					      const struct result *r)
{
	if (c->nrequires > 0 || r->output == VERDICT_PASS)
		return OUTPUT_RIGHT;
	if (r->output == VERDICT_WRONG_OUTPUT && wrong_output_cause(g, c, r))
		return OUTPUT_EXCUSED;
	return OUTPUT_WRONG;
}

/* "the race at line 10", for a note naming a cause. */
static void name_cause(struct strbuf *out, const struct finding *f)
{
	strbuf_printf(out, "the %s at line %d",
		      f->kind == FINDING_RACE	      ? "data race"
		      : f->kind == FINDING_DIVERGENCE ? "barrier divergence"
						      : "out-of-bounds read",
		      f->at.line);
}

/* Why a consequence follows from its cause, and who charges the cause. */
static const char *cause_reason(const struct finding *cause)
{
	switch (cause->kind) {
	case FINDING_RACE:
		return " (a read of what the racing write should have filled first): that "
		       "mistake is charged where races are, not here";
	case FINDING_DIVERGENCE:
		return " (items that skipped the barrier skipped the writes before it, which "
		       "others read): that mistake is charged where divergence is, not here";
	default:
		return " (memory past a buffer holds no value the kernel gave it): that mistake "
		       "is charged where out-of-bounds accesses are, not here";
	}
}

/* Adds one finding to the check's diagnostics at the submission's line: its headline
 * tagged with the run, the other site and where the fix goes. */
static void add_finding(struct check_grade *cg, const struct finding *f, const char *tag,
			const char *path)
{
	struct strbuf msg = { 0 }, note = { 0 };
	finding_headline(&msg, f);
	strbuf_puts(&msg, tag);
	const char *file = f->file ? f->file : path;
	diag_add(&cg->diags, DIAG_ERROR, file, f->at.line, f->at.col, "%s", msg.data);
	diag_set_code(&cg->diags, finding_kind_name(f->kind));
	finding_note(&note, f);
	if (note.len > 0)
		diag_add(&cg->diags, DIAG_NOTE, file, f->other.line > 0 ? f->other.line : f->at.line,
			 f->other.line > 0 ? f->other.col : f->at.col, "%s", note.data);
	/* Where the fix goes, in a sentence the student can act on. */
	struct advice a;
	if (advice_for_file(f, file, &a)) {
		diag_add(&cg->diags, DIAG_NOTE, file, a.line ? a.line : f->at.line,
			 a.line ? a.col : f->at.col, "%s", a.text);
		advice_free(&a);
	}
	strbuf_free(&msg);
	strbuf_free(&note);
}

/* Notes, in a run check c passes, what it did not charge and why: a consequence of a
 * mistake another check charges, or a wrong output a race explains. */
static void note_excused(const struct grader *g, const struct grade_check *c,
			 struct check_grade *cg, const struct result *r, const char *tag)
{
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		const struct finding *cause = forbidden(c, f) ? excusing_cause(g, c, r, f) : NULL;
		if (cause == NULL)
			continue;
		struct strbuf msg = { 0 };
		finding_headline(&msg, f);
		strbuf_puts(&msg, tag);
		strbuf_puts(&msg, ", which follows from ");
		name_cause(&msg, cause);
		strbuf_puts(&msg, cause_reason(cause));
		diag_add(&cg->diags, DIAG_NOTE, f->file ? f->file : g->path, f->at.line, f->at.col,
			 "%s", msg.data);
		strbuf_free(&msg);
	}
	if (simulated_output(g, c, r) == OUTPUT_EXCUSED) {
		const struct finding *cause = wrong_output_cause(g, c, r);
		struct strbuf msg = { 0 };
		strbuf_printf(&msg, "its output was wrong%s, which ", tag);
		name_cause(&msg, cause);
		strbuf_puts(&msg, " explains: that mistake is charged where it is forbidden, not here");
		diag_add(&cg->diags, DIAG_NOTE, cause->file ? cause->file : g->path,
			 cause->at.line, cause->at.col, "%s", msg.data);
		strbuf_free(&msg);
	}
}

/* Adds what a failed run says to the check's diagnostics: the simulator's findings at the
 * submission's lines, a wrong output where the check needs a right one, or the verdict's
 * message, tagged with the run's sizes. */
static void note_failure(const struct grader *g, const struct grade_check *c,
			 struct check_grade *cg, const struct result *r)
{
	char tag[SHAPE_RUN_TEXT_MAX + 4];
	run_tag(r, tag);
	bool sim = c->kind == GRADE_SIMULATE;
	bool any = false;
	bool judged = sim && simulator_judged(r);
	for (size_t i = 0; sim && i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		if (!forbidden(c, f) || excusing_cause(g, c, r, f))
			continue;
		add_finding(cg, f, tag, g->path);
		any = true;
	}
	if (judged && !any && simulated_output(g, c, r) == OUTPUT_WRONG) {
		const char *why = r->output == VERDICT_WRONG_OUTPUT && r->message
					  ? r->message
					  : "no output was compared";
		diag_add(&cg->diags, DIAG_ERROR, g->path, 0, 0,
			 "wrong-output under the simulator: %s%s; this check earns a run's share "
			 "only where the kernel also computes the right output",
			 why, tag);
		diag_set_code(&cg->diags, verdict_name(VERDICT_WRONG_OUTPUT));
		any = true;
	}
	if (any) {
		note_excused(g, c, cg, r, tag);
		return;
	}
	/* A build error is at the submission's line; other messages are about the run. */
	bool at_line = r->verdict == VERDICT_BUILD_ERROR && r->line > 0;
	diag_add(&cg->diags, DIAG_ERROR, at_line && r->file ? r->file : g->path,
		 at_line ? r->line : 0, at_line ? r->col : 0, "%s: %s%s", verdict_name(r->verdict),
		 r->message ? r->message : "no message", tag);
	diag_set_code(&cg->diags, verdict_name(r->verdict));
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

/* Drops the diagnostics that say what one before them said; returns how many errors. */
static size_t drop_repeats(struct diag_list *list)
{
	size_t kept = 0, errors = 0;
	for (size_t i = 0; i < list->count; i++) {
		if (seen(list, kept, &list->items[i])) {
			errors += list->items[i].severity == DIAG_ERROR;
			free(list->items[i].file);
			free(list->items[i].message);
			continue;
		}
		list->items[kept++] = list->items[i];
	}
	list->count = kept;
	return errors;
}

/* Counts a failed run's verdict in the check's: a run the sandbox stopped, apart. */
static void take_failed_verdict(struct check_grade *cg, const struct result *r)
{
	if (r->sandbox_stop)
		cg->sandboxed = true;
	else
		cg->verdicts |= 1u << r->verdict;
	if ((r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_CRASH) && !r->sandbox_stop &&
	    cg->stopped_at == NULL) {
		char at[SHAPE_RUN_TEXT_MAX];
		cg->stopped = r->verdict;
		cg->stopped_at = r->n.dims > 0 ? xstrdup(shape_run_text(&r->n, &r->l, " ", at))
					       : xstrdup("its build");
	}
}

/* Whether a run passes check `c`: right output; or, simulated, none of the forbidden
 * findings but those following from a mistake another check charges, and the output
 * right (simulated_output). */
static bool run_passes(const struct grader *g, const struct grade_check *c, const struct result *r)
{
	if (c->kind != GRADE_SIMULATE)
		return r->verdict == VERDICT_PASS;
	if (!simulator_judged(r))
		return false;
	for (size_t i = 0; i < r->findings.count; i++)
		if (forbidden(c, &r->findings.items[i]) &&
		    !excusing_cause(g, c, r, &r->findings.items[i]))
			return false;
	return simulated_output(g, c, r) != OUTPUT_WRONG;
}

/* A correct or simulate check, from its phase's runs: every size by every work-group
 * size. Runs a hang left out count as failed. */
static void grade_runs(struct grader *g, size_t index, struct check_grade *cg)
{
	const struct grade_check *c = &g->a->checks[index];
	const struct check_runs *cr = &g->runs[g->runs[index].same_as];
	if (cr->tc == NULL) {
		cg->summary = xasprintf("its case does not load");
		return;
	}
	bool sim = c->kind == GRADE_SIMULATE;
	size_t reported = 0, received = 0, excused = 0;
	bool whole_case_skipped = false;
	for (size_t k = 0; k < cr->count; k++) {
		const struct result *r = &cr->results[k];
		if (r->n.dims == 0 && r->verdict == VERDICT_SKIP) {
			whole_case_skipped = true; /* the device lacks what the case needs */
			break;
		}
		/* A result about the whole case (a failed build) stands for all its runs. */
		received += r->n.dims > 0 ? 1 : cr->planned;
		if (r->verdict == VERDICT_SKIP)
			continue; /* the device cannot run this work-group size */
		cg->runs += r->n.dims > 0 ? 1 : cr->planned;
		if (run_passes(g, c, r)) {
			cg->passed++;
			if (sim && excused++ < MAX_REPORTED_RUNS) {
				char tag[SHAPE_RUN_TEXT_MAX + 4];
				note_excused(g, c, cg, r, run_tag(r, tag));
			}
			continue;
		}
		take_failed_verdict(cg, r);
		if (reported++ < MAX_REPORTED_RUNS)
			note_failure(g, c, cg, r);
	}
	size_t left_out =
		whole_case_skipped || received >= cr->planned ? 0 : cr->planned - received;
	cg->runs += left_out;
	size_t repeated = drop_repeats(&cg->diags);
	if (repeated > 0)
		diag_add(&cg->diags, DIAG_NOTE, g->path, 0, 0,
			 "%zu more failing run%s of this check said the same as one shown", repeated,
			 repeated == 1 ? "" : "s");
	if (reported > MAX_REPORTED_RUNS)
		diag_add(&cg->diags, DIAG_NOTE, g->path, 0, 0,
			 "%zu more failing run%s of this check not shown",
			 reported - MAX_REPORTED_RUNS,
			 reported - MAX_REPORTED_RUNS == 1 ? "" : "s");
	cg->points = cg->runs ? grade_round(c->points * (double)cg->passed / (double)cg->runs) : 0;
	if (sim)
		cg->summary = xasprintf("%zu of %zu simulated runs free of what it forbids",
					cg->passed, cg->runs);
	else
		cg->summary = xasprintf("%zu of %zu runs right", cg->passed, cg->runs);
	if (left_out > 0) {
		char *counted = cg->summary;
		char *where = hung_where(g, c);
		cg->summary = where ? xasprintf("%s; %zu not run, since the kernel hung %s", counted,
						left_out, where)
				    : xasprintf("%s; %zu not run", counted, left_out);
		free(where);
		free(counted);
	}
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

/* The results of a speed check's runs, in the order of its cases. */
struct timed_runs {
	struct result *results;
	size_t count;
};

static void take_timed_result(void *ctx, struct result *r)
{
	struct timed_runs *t = ctx;
	t->results = xreallocarray(t->results, t->count + 1, sizeof *t->results);
	t->results[t->count++] = *r;
	*r = (struct result){ 0 };
}

/* The device time a round of a speed check's launches should span at least: a kernel whose
 * one launch is as long needs no more to be timed well, since the fastest of the rounds
 * is kept; a slow submission launched `repeat` times a round would only cost the class
 * the time. */
#define SPEED_ROUND_MIN_NS 20000000ull

/* Launches a round of the submission's speed runs: as many as the check says, or fewer
 * where one launch at the check's shape took long enough in the correct checks' runs. */
static unsigned speed_launches(const struct grader *g, const struct grade_check *c,
			       const struct shape *n, const struct shape *l)
{
	uint64_t one = 0;
	for (size_t i = 0; i < g->a->nchecks; i++) {
		const struct check_runs *cr = &g->runs[g->runs[i].same_as];
		if (g->a->checks[i].kind != GRADE_CORRECT)
			continue;
		for (size_t k = 0; k < cr->count; k++) {
			const struct result *r = &cr->results[k];
			/* Correct checks run on the device the speed check times. */
			if (r->verdict == VERDICT_PASS && r->repeat == 1 && r->kernel_ns > 0 &&
			    shape_equal(&r->n, n) && shape_equal(&r->l, l) &&
			    (one == 0 || r->kernel_ns < one))
				one = r->kernel_ns;
		}
	}
	if (one == 0)
		return c->repeat;
	uint64_t need = (SPEED_ROUND_MIN_NS + one - 1) / one;
	return need < c->repeat ? (unsigned)(need ? need : 1) : c->repeat;
}

/* A speed check: the reference kernel and the submission timed in turns, at the same
 * size, in one worker, the fastest of `rounds` runs of each kept, since noise only ever
 * adds time; each compared by its time a launch. */
static void grade_speed(struct grader *g, const struct grade_check *c, struct check_grade *cg)
{
	if (g->hang) {
		cg->runs = 1;
		cg->verdicts |= 1u << VERDICT_TIMEOUT;
		char *where = hung_where(g, c);
		cg->summary = xasprintf("not timed, since the kernel hung %s", where);
		free(where);
		return;
	}
	struct test_case *mine = check_case(g, c, true, cg);
	struct test_case *ref = mine ? speed_reference(g, c, cg) : NULL;
	if (ref == NULL) {
		cg->summary = xasprintf("its case does not load");
		case_free(mine);
		return;
	}
	const struct shape *n = &c->sizes[0], *l = &c->locals[0];
	set_runs(mine, "submission", n, 1, l, 1);
	char *ref_name = xstrdup(ref->name);
	set_runs(ref, "reference", n, 1, l, 1);
	char at[SHAPE_RUN_TEXT_MAX];
	shape_run_text(n, l, ", ", at);
	unsigned launches = speed_launches(g, c, n, l);
	mine->launches = launches;
	ref->launches = c->repeat;

	struct test_case **turns = xcalloc(2 * c->rounds + 1, sizeof *turns);
	for (unsigned round = 0; round < c->rounds; round++) {
		turns[2 * round] = ref;
		turns[2 * round + 1] = mine;
	}
	struct run_options opt = limited(g);
	opt.cpu_limit_s = worker_cpu_limit(g, 4 * (size_t)c->rounds);
	opt.repeat = c->repeat;
	opt.stop_at_timeout = true;
	if (g->opt->wall_s == 0) {
		opt.run_limit_s = g->opt->speed_run_s;
		opt.run_limit_why = g->opt->speed_run_why;
	}
	char *patterns[] = { (char *)g->opt->device };
	struct selection sel;
	struct timed_runs timed = { 0 };
	int lock = take_lock(g->opt->speed_lock, LOCK_EX);
	selection_open(&sel, patterns, 1, turns, 2 * c->rounds, &opt, g->wall_s);
	if (sel.count > 0)
		selection_run(&sel, 0, take_timed_result, &timed);
	selection_free(&sel);
	drop_lock(lock);

	uint64_t best_ref = UINT64_MAX, best_mine = UINT64_MAX;
	cg->runs = 1;
	for (size_t k = 0; k < 2 * (size_t)c->rounds; k += 2) {
		const struct result *r_ref = k < timed.count ? &timed.results[k] : NULL;
		const struct result *r_mine = k + 1 < timed.count ? &timed.results[k + 1] : NULL;
		if (r_ref && r_ref->verdict != VERDICT_PASS) {
			cg->summary = xasprintf("not timed: the reference kernel gave %s (%s), a "
						"fault of the assignment",
						verdict_name(r_ref->verdict), at);
			break;
		}
		if (r_ref == NULL || r_mine == NULL) {
			cg->summary = xasprintf("not timed: %s could not run it at %s",
						g->opt->device, at);
			break;
		}
		if (r_mine->verdict != VERDICT_PASS) {
			take_failed_verdict(cg, r_mine);
			cg->summary = xasprintf("not timed: the submission gave %s at %s",
						verdict_name(r_mine->verdict), at);
			note_failure(g, c, cg, r_mine);
			break;
		}
		if (r_ref->kernel_ns < best_ref)
			best_ref = r_ref->kernel_ns;
		if (r_mine->kernel_ns < best_mine)
			best_mine = r_mine->kernel_ns;
	}
	if (cg->summary == NULL) {
		double ref_launch = (double)best_ref / c->repeat,
		       mine_launch = (double)best_mine / launches;
		cg->speed = best_mine > 0 ? ref_launch / mine_launch : 0;
		double share = (cg->speed - c->none) / (c->full - c->none);
		share = share < 0 ? 0 : share > 1 ? 1 : share;
		/* Whole points: timing noise near a point's edge moves no fraction of one. */
		cg->points = round(c->points * share);
		cg->passed = cg->points >= c->points;
		cg->summary = xasprintf("%.2f of the reference's speed (%.3f ms a launch, the "
					"fastest of %u rounds of %u launch%s, against %.3f ms of "
					"%s in rounds of %u, at %s)",
					cg->speed, mine_launch / 1e6, c->rounds, launches,
					launches == 1 ? "" : "es", ref_launch / 1e6, ref_name,
					c->repeat, at);
	}
	for (size_t k = 0; k < timed.count; k++)
		result_free(&timed.results[k]);
	free(timed.results);
	free(turns);
	free(ref_name);
	case_free(mine);
	case_free(ref);
}

/* What the reference runs of one kind took. */
struct calibration {
	uint64_t slowest_ns;
	size_t timed;
	char *failure; /* the first reference run that did not pass */
};

static void take_calibration(void *ctx, struct result *r)
{
	struct calibration *cal = ctx;
	if (r->verdict == VERDICT_SKIP)
		return;
	if (r->verdict != VERDICT_PASS) {
		if (cal->failure == NULL) {
			char at[SHAPE_RUN_TEXT_MAX] = "the build";
			if (r->n.dims > 0)
				shape_run_text(&r->n, &r->l, ", ", at);
			cal->failure = xasprintf("%s gave %s at %s: %s", r->case_path,
						 verdict_name(r->verdict), at,
						 r->message ? r->message : "no message");
		}
		return;
	}
	uint64_t ns = r->run_ns + r->reference_ns + r->compare_ns;
	if (ns > cal->slowest_ns)
		cal->slowest_ns = ns;
	cal->timed++;
}

/* Runs the reference of every check of `kind` as a submission's runs would be run, and
 * sets *limit_s and *why from the slowest; leaves them unset and says why in *note when
 * a reference run fails. */
static void calibrate_kind(const struct assignment *a, const struct grade_options *opt,
			   enum grade_kind kind, unsigned *limit_s, char **why, struct strbuf *note)
{
	bool simulated = kind == GRADE_SIMULATE;
	struct test_case **cases = xcalloc(a->nchecks + 1, sizeof *cases);
	size_t n = 0;
	for (size_t i = 0; i < a->nchecks; i++) {
		const struct grade_check *c = &a->checks[i];
		if (c->kind != kind)
			continue;
		/* A speed check's reference is the kernel it is timed against, where it names
		 * one. */
		const char *paths[] = { c->case_path,
					kind == GRADE_SPEED ? c->against_path : NULL };
		for (size_t k = 0; k < 2 && paths[k]; k++) {
			struct diag_list diags = { 0 };
			struct test_case *tc = case_load(paths[k], &diags);
			diag_list_free(&diags);
			if (tc == NULL)
				continue; /* grading says so for every student */
			cases = xreallocarray(cases, n + 2, sizeof *cases);
			set_check_runs(tc, c);
			cases[n++] = tc;
		}
	}
	/* The reference kernels are the course's: their programs go to the shared cache whole,
	 * with the code compiled for each shape the checks run, where each submission's runs
	 * load them from without compiling them in a cache of its own. */
	struct run_options ropt = { .repeat = 1,
				    .cpu_limit_s = a->cpu_s,
				    .address_space_limit = a->address_space,
				    .timed = true,
				    .unsandboxed = opt->unsandboxed,
				    .keep_programs_whole = true };
	for (size_t i = 0; kind == GRADE_SPEED && i < a->nchecks; i++)
		if (a->checks[i].kind == GRADE_SPEED && a->checks[i].repeat > ropt.repeat)
			ropt.repeat = a->checks[i].repeat;
	struct calibration cal = { 0 };
	if (n > 0) {
		char *patterns[] = { (char *)(simulated ? opt->simulator : opt->device) };
		struct selection sel;
		selection_open(&sel, patterns, 1, cases, n, &ropt, a->wall_s);
		if (sel.count > 0)
			selection_run(&sel, 0, take_calibration, &cal);
		selection_free(&sel);
	}
	if (cal.failure) {
		strbuf_printf(note, "%s%s runs keep the assignment's limit of %u s, since %s",
			      note->len ? "; " : "", grade_kind_name(kind), a->wall_s, cal.failure);
	} else if (cal.timed > 0) {
		double slowest_s = cal.slowest_ns / 1e9;
		double limit = ceil(GRADE_LIMIT_FACTOR * slowest_s);
		limit = limit < GRADE_LIMIT_FLOOR_S ? GRADE_LIMIT_FLOOR_S : limit;
		*limit_s = limit < a->wall_s ? (unsigned)limit : a->wall_s;
		*why = xasprintf("the limit of a %s run: %d times the reference kernel's slowest, "
				 "%.3f s, and at least %d s",
				 grade_kind_name(kind), GRADE_LIMIT_FACTOR, slowest_s,
				 GRADE_LIMIT_FLOOR_S);
	}
	free(cal.failure);
	for (size_t i = 0; i < n; i++)
		case_free(cases[i]);
	free(cases);
}

void grade_calibrate(const struct assignment *a, struct grade_options *opt, char **note)
{
	struct strbuf why = { 0 };
	calibrate_kind(a, opt, GRADE_CORRECT, &opt->device_run_s, &opt->device_run_why, &why);
	if (opt->simulator)
		calibrate_kind(a, opt, GRADE_SIMULATE, &opt->simulator_run_s,
			       &opt->simulator_run_why, &why);
	calibrate_kind(a, opt, GRADE_SPEED, &opt->speed_run_s, &opt->speed_run_why, &why);
	*note = why.data;
}

void grade_options_free(struct grade_options *opt)
{
	free(opt->device_run_why);
	free(opt->simulator_run_why);
	free(opt->speed_run_why);
	opt->device_run_why = opt->simulator_run_why = opt->speed_run_why = NULL;
}

bool check_grade_passed(const struct grade_check *c, const struct check_grade *cg)
{
	return cg->runs > 0 && cg->points >= c->points;
}

/* A check that requires correct checks earns nothing until each has passed: its runs
 * showed no forbidden finding, but of a kernel not yet shown to do the work. */
static void apply_requires(const struct assignment *a, size_t index, struct student_grade *sg)
{
	const struct grade_check *c = &a->checks[index];
	struct check_grade *cg = &sg->checks[index];
	for (size_t k = 0; k < c->nrequires; k++) {
		const struct grade_check *need = &a->checks[c->requires[k]];
		if (check_grade_passed(need, &sg->checks[c->requires[k]]) || cg->points == 0)
			continue;
		cg->points = 0;
		char *was = cg->summary;
		cg->summary = xasprintf("%s; earns nothing until %s passes", was ? was : "",
					need->name);
		free(was);
		diag_add(&cg->diags, DIAG_ERROR, sg->submission, 0, 0,
			 "this check earns its points only once %s passes (the assignment ties "
			 "it to that check), and %s did not",
			 need->name, need->name);
		return;
	}
}

/* Builds the submission and compares each declared kernel's parameters; on failure
 * fills the blocker. */
static bool kernels_match(struct grader *g, struct student_grade *sg)
{
	struct run_options opt = limited(g);
	char *patterns[] = { (char *)g->opt->device };
	struct selection sel;
	/* The lock covers the workers' start and end as well as the build: a process
	 * starting a driver beside another grader's timed runs slows their short kernels
	 * most, and so moves its speed ratio. */
	int lock = take_lock(g->opt->speed_lock, LOCK_SH);
	selection_open(&sel, patterns, 1, NULL, 0, &opt, g->wall_s);
	bool ok = true;
	if (sel.count == 0) {
		sg->blocker = xasprintf("%s cannot run here%s%s", g->opt->device,
					sel.nmissing ? ": " : "",
					sel.nmissing ? sel.missing[0].reason : "");
		sg->blocker_verdict = VERDICT_CASE_ERROR;
		selection_free(&sel);
		drop_lock(lock);
		return false;
	}
	size_t index;
	struct dispatcher *d = selection_dispatcher(&sel, 0, &index);
	for (size_t k = 0; k < g->a->nkernels && ok; k++) {
		const struct kernel_proto *want = &g->a->kernels[k];
		struct kernel_sig sig = { 0 };
		struct result failure = { 0 };
		if (dispatch_inspect(d, index, g->path, want->name, g->options, &sig, &failure) <
		    0) {
			ok = false;
			sg->blocker_verdict = failure.verdict;
			if (failure.verdict == VERDICT_CASE_ERROR) {
				sg->blocker =
					xasprintf("no kernel named %s: the assignment asks for "
						  "'%s'",
						  want->name, want->text);
				sg->note = xasprintf("no kernel %s", want->name);
			}
			else
				sg->blocker = xasprintf("%s: %s", verdict_name(failure.verdict),
							failure.message ? failure.message : "");
			if (failure.verdict == VERDICT_BUILD_ERROR && failure.line > 0)
				diag_add(&sg->blocker_diags, DIAG_ERROR, g->path, failure.line,
					 failure.col, "%s", failure.message);
			if (failure.sandbox_stop) {
				free(sg->note);
				sg->note = xstrdup("sandbox");
			}
			sg->blocker_log = failure.detail;
			failure.detail = NULL;
			text_cut(&sg->blocker_log, RESULT_DETAIL_MAX, "build log");
		} else {
			char *why = kernel_sig_mismatch(&want->sig, &sig);
			if (why) {
				ok = false;
				sg->blocker_verdict = VERDICT_CASE_ERROR;
				sg->blocker = xasprintf("kernel %s has other parameters than the "
							"assignment's '%s': %s",
							want->name, want->text, why);
				/* "parameter 1 is '...'", "it takes 3 parameters, ...": the
				 * parameter, or the count. */
				size_t head = strncmp(why, "parameter ", 10) == 0
						      ? 10 + strspn(why + 10, "0123456789")
						      : strcspn(why, ",");
				sg->note = xasprintf("signature: %.*s", (int)head, why);
				free(why);
			}
		}
		result_free(&failure);
		kernel_sig_free(&sig);
	}
	selection_free(&sel);
	drop_lock(lock);
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

/* Refuses, before any compiler reads it, a submission holding native code the assignment
 * does not allow (nativecode.h) in `files`, those its kernel reaches: blocks its grade
 * with each place at its line and the kind as the class table's note. Returns whether it
 * did. */
static bool refuse_native_code(const struct assignment *a, const struct submission *sub,
			       char *const *files, size_t nfiles, const char *options,
			       struct student_grade *sg)
{
	unsigned kinds = ((1u << NATIVE_KINDS) - 1) & ~a->allow;
	struct diag_list found = { 0 };
	unsigned kinds_found = kinds ? nativecode_find(files, nfiles, options, kinds, &found) : 0;
	if (kinds_found == 0) {
		diag_list_free(&found);
		return false;
	}
	enum native_kind first =
		kinds_found & (1u << NATIVE_ASSEMBLY) ? NATIVE_ASSEMBLY : NATIVE_FUNCTION_POINTER;
	char *why = xasprintf(
		"refused before it was built: it holds %s (%zu place%s), which a kernel run as a "
		"CPU's own code could use to reach the grading machine",
		first == NATIVE_ASSEMBLY ? "inline assembly" : "a pointer to a function",
		found.count, found.count == 1 ? "" : "s");
	grade_blocked(a, sub->student, sub->path, VERDICT_BUILD_ERROR, why, sg);
	free(why);
	sg->note = xstrdup(native_kind_name(first));
	diag_list_move(&sg->blocker_diags, &found);
	return true;
}

/* The class table's note of an #include refused: the file it names, where it names one
 * in quotes (includes.c's messages start with the directive). */
static char *include_note(const char *message)
{
	const char *open = strncmp(message, "#include \"", 10) == 0 ? message + 9 : NULL;
	const char *close = open ? strchr(open + 1, '"') : NULL;
	if (close == NULL)
		return xstrdup(strstr(message, "macro") ? "include refused: through a macro"
							: "include refused");
	return xasprintf("include refused: %.*s", (int)(close - open - 1), open + 1);
}

/* Whether the OpenCL C text `text` defines kernel `name`: the name, as a word, followed by
 * its parameter list, in a declaration that says kernel or __kernel. Read as text, which a
 * student's choice between files needs no more than. */
static bool defines_kernel(const char *text, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		bool word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		const char *after = p + len;
		while (*after == ' ' || *after == '\t' || *after == '\n')
			after++;
		if (!word_start || *after != '(')
			continue;
		/* Back to the start of the declaration. */
		const char *start = p;
		while (start > text && start[-1] != ';' && start[-1] != '}')
			start--;
		char *head = xstrndup(start, (size_t)(p - start));
		bool kernel = strstr(head, "kernel") != NULL;
		free(head);
		if (kernel)
			return true;
	}
	return false;
}

/* A student's folder of several .cl files: the one that defines every kernel the
 * assignment asks for, where exactly one does, graded with a note saying so; otherwise
 * the student is told which files were found and what is expected. Returns the file to
 * grade (the submission's), or NULL with sg blocked. */
static const char *choose_file(const struct assignment *a, const struct submission *sub,
			       struct student_grade *sg)
{
	const char *chosen = NULL;
	size_t defining = 0;
	struct strbuf found = { 0 }, listed = { 0 }, kernels = { 0 };
	for (size_t k = 0; k < a->nkernels; k++)
		strbuf_printf(&kernels, "%s%s", k ? ", " : "", a->kernels[k].name);
	for (size_t i = 0; i < sub->nfiles; i++) {
		const char *base = strrchr(sub->files[i], '/');
		strbuf_printf(&found, "%s%s", i ? ", " : "", base ? base + 1 : sub->files[i]);
		/* The table's note is a CSV cell a script may split at commas. */
		strbuf_printf(&listed, "%s%s", i ? " " : "", base ? base + 1 : sub->files[i]);
		char *text = read_file(sub->files[i], NULL);
		bool all = text != NULL;
		for (size_t k = 0; all && k < a->nkernels; k++)
			all = defines_kernel(text, a->kernels[k].name);
		free(text);
		if (all && defining++ == 0)
			chosen = sub->files[i];
	}
	if (defining == 1) {
		const char *base = strrchr(chosen, '/');
		sg->note = xasprintf("%zu .cl files: graded %s (the one defining the kernel%s)",
				     sub->nfiles, base ? base + 1 : chosen, a->nkernels == 1 ? "" : "s");
	} else {
		char *why = xasprintf(
			"%s holds %zu .cl files (%s), and %s of them define%s %s: hand in one .cl "
			"file that defines the assignment's kernel%s",
			sub->folder, sub->nfiles, found.data, defining == 0 ? "none" : "several",
			defining == 0 ? "s" : "", kernels.data, a->nkernels == 1 ? "" : "s");
		/* The folder stands for the submission, which no one file is. */
		grade_blocked(a, sub->student, sub->folder, VERDICT_CASE_ERROR, why, sg);
		free(why);
		sg->note = xasprintf("%zu .cl files: %s", sub->nfiles, listed.data);
		chosen = NULL;
	}
	strbuf_free(&found);
	strbuf_free(&listed);
	strbuf_free(&kernels);
	return chosen;
}

/* Grades the kernel file at `path`, the submission's. */
static void grade_file(const struct assignment *a, const struct grade_options *opt,
		       const struct submission *sub, const char *path, struct student_grade *sg)
{
	const char *student = sub->student;
	if (sub->problem || path == NULL || access(path, R_OK) != 0) {
		char *why = sub->problem ? xstrdup(sub->problem)
			    : path	 ? xasprintf("cannot read %s", path)
					 : xstrdup("no kernel file to grade");
		grade_blocked(a, student, path ? path : sub->folder, VERDICT_CASE_ERROR, why, sg);
		free(why);
		return;
	}
	uint64_t source_hash = submission_hash(path);
	/* Refused before any compiler reads it, so no build log quotes another's file. */
	struct diag_list refused = { 0 };
	char **files;
	size_t nfiles;
	if (includes_check(path, sub->folder, &refused, &files, &nfiles) < 0) {
		grade_blocked(a, student, path, VERDICT_BUILD_ERROR, refused.items[0].message, sg);
		sg->note = include_note(refused.items[0].message);
		diag_list_move(&sg->blocker_diags, &refused);
		sg->source_hash = source_hash;
		return;
	}
	/* A folder's own files are included from it; a lone file includes none. Build options
	 * are split at spaces, so a folder with one cannot be named. */
	char *options = sub->folder && !strpbrk(sub->folder, " \t\"'\\")
				? xasprintf("-I %s", sub->folder)
				: xstrdup("");
	bool native = refuse_native_code(a, sub, files, nfiles, options, sg);
	strings_free(files, (long)nfiles);
	if (native) {
		sg->source_hash = source_hash;
		free(options);
		return;
	}
	student_grade_init(a, student, path, sg);
	struct grader g = { .a = a,
			    .opt = opt,
			    .path = path,
			    .options = options,
			    .wall_s = opt->wall_s ? opt->wall_s : a->wall_s };
	bool temporary_cache;
	g.private_cache = submission_cache(a, opt, sub, source_hash, &temporary_cache);
	if (kernels_match(&g, sg)) {
		plan_checks(&g, sg);
		run_phase(&g, false);
		run_phase(&g, true);
		for (size_t i = 0; i < a->nchecks; i++) {
			const struct grade_check *c = &a->checks[i];
			if (c->kind == GRADE_SPEED)
				grade_speed(&g, c, &sg->checks[i]);
			else
				grade_runs(&g, i, &sg->checks[i]);
		}
		for (size_t i = 0; i < a->nchecks; i++) {
			apply_requires(a, i, sg);
			sg->total += sg->checks[i].points;
			if (sg->checks[i].sandboxed && sg->note == NULL)
				sg->note = xstrdup("sandbox");
		}
		sg->total = grade_round(sg->total);
	} else {
		mark_not_run(a, sg);
	}
	for (size_t i = 0; g.runs && i < a->nchecks; i++) {
		for (size_t k = 0; k < g.runs[i].count; k++)
			result_free(&g.runs[i].results[k]);
		free(g.runs[i].results);
		case_free(g.runs[i].tc);
	}
	free(g.runs);
	free(g.hang);
	free(options);
	if (g.private_cache && temporary_cache)
		remove_tree(g.private_cache);
	free(g.private_cache);
	sg->source_hash = source_hash;
}

void grade_submission(const struct assignment *a, const struct grade_options *opt,
		      const struct submission *sub, struct student_grade *sg)
{
	if (sub->nfiles <= 1) {
		grade_file(a, opt, sub, sub->path, sg);
		return;
	}
	struct student_grade chose = { 0 };
	const char *path = choose_file(a, sub, &chose);
	if (path == NULL) {
		*sg = chose;
		return;
	}
	grade_file(a, opt, sub, path, sg);
	/* What blocked it says more than the choice that came before. */
	if (sg->note == NULL) {
		sg->note = chose.note;
		chose.note = NULL;
	}
	student_grade_free(&chose);
}

uint64_t submission_hash(const char *path)
{
	size_t len;
	char *text = path ? read_file(path, &len) : NULL;
	uint64_t h = text ? fnv1a(FNV1A_START, text, len) : 0;
	free(text);
	return h;
}

void student_grade_free(struct student_grade *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->nchecks; i++) {
		free(g->checks[i].summary);
		free(g->checks[i].stopped_at);
		diag_list_free(&g->checks[i].diags);
	}
	free(g->checks);
	free(g->student);
	free(g->submission);
	free(g->blocker);
	free(g->blocker_log);
	free(g->note);
	diag_list_free(&g->blocker_diags);
	*g = (struct student_grade){ 0 };
}
