/* mutate.c - clharness mutate: the classic GPU mistakes seeded into a case's kernel or an
 * assignment's reference solution, and what its checks catch of them. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/annotate.h"
#include "base/interrupt.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/shared.h"
#include "exec/select.h"
#include "grade/batch.h"
#include "grade/gradereport.h"
#include "mutate/mutate.h"
#include "results/report.h"
#include "source/kernelsrc.h"

enum { OPT_OPERATORS = CLI_OWN, OPT_SAVE, OPT_KILL_BELOW };

/* An assignment's mutant is killed only where it keeps less than this share of the
 * reference's points (speed aside). A missing barrier, which a CPU device often runs right
 * and whose consequences are charged once (grade.c), costs the race check's points
 * alone: a check forbidding races worth more than a quarter of the points, failed at
 * every simulated launch, is what kills it. 87.5 of 100 is no kill. */
#define DEFAULT_KILL_BELOW 0.75

static const struct cli_option mutate_opts[] = {
	{ OPT_OPERATORS, "operators", "LIST",
	  "seed only these mistakes, comma-separated: barrier (a barrier removed), fence (its "
	  "flags: local to global, global to local, one of both dropped), atomic (an atomic "
	  "read-modify-write in its plain form), bound (< and <=, > and >= swapped), index "
	  "(an index off by one, +1 and -1), id (get_local_id and get_global_id swapped, "
	  "get_group_id for either), guard (an if without else made if (1)), step (a loop's "
	  "halving made quartering, doubling tripling), empty (a kernel's body emptied), write "
	  "(a write to a global buffer removed), lockstep (a barrier taken only by work-groups "
	  "of more than 32 items), return (a guard made an early return before a later "
	  "barrier); default: all" },
	{ OPT_KILL_BELOW, "kill-below", "SHARE",
	  "an assignment's mutant is killed only where it keeps less than SHARE of the "
	  "reference solution's points, speed aside (0.75 or 75%; default 0.75, under which a "
	  "missing barrier cannot pass where races cost more than a quarter); one that loses "
	  "points but keeps more is a weak catch, listed with its points" },
	CLI_OPT_DEVICE("judge a case's mutants on the devices NAME selects (default: every "
		       "device and oclgrind), an assignment's on the first device it selects"),
	CLI_OPT_JOBS("judge N mutants side by side (default: one a core)"),
	CLI_OPT_TIMEOUT("a run with no result after S seconds is a time-out (default 10; an "
			"assignment's own limits where not given)"),
	CLI_OPT_JSON("print JSON Lines: an object a mutant, then one with the score"),
	{ OPT_SAVE, "save", "DIR",
	  "write every mutant to DIR as a kernel file, for an instructor to keep as sample "
	  "submissions" },
	CLI_OPT_COLOR,
	{ 0 },
};

static int mutate_main(int argc, char **argv);

const struct cli_command cli_mutate = {
	.name = "mutate",
	.synopsis = "[--operators LIST] [--kill-below SHARE] [--json] [-j N] [--save DIR] "
		    "CASE|DIR|ASSIGNMENT...",
	.summary = "seed the classic GPU mistakes into a kernel and count what the checks catch",
	.about = "Finds in the kernel's syntax (libclang) each barrier, fence flag, atomic, "
		 "relational bound, array index, work-item function, guarding if and loop step, "
		 "and makes a mutant of one mistake there. A case's mutants run through its "
		 "targets and golden as `clharness run` runs it; an assignment's reference "
		 "solution's mutants are graded as students, check by check, and one is killed "
		 "only where it keeps less than --kill-below of the points. Each mutant is "
		 "killed (with what caught it), survived (a weak catch where it lost too few "
		 "points), stillborn (does not build) or timed out; the score is killed over all "
		 "but the stillborn. Survivors are shown at "
		 "their source line. Pick operators with --operators barrier,fence.",
	.options = mutate_opts,
	.after = "Exit status: 0 when every mutant that builds was killed, 1 when one survived "
		 "or timed out, 77 when no mutant was judged (every case a known bug), 2 on usage "
		 "or setup errors (a subject whose own checks fail, a "
		 "kernel clang cannot parse).",
	.main = mutate_main,
};

/* What the subjects so far came to: whether every judged mutant was killed, and how many
 * were judged at all (none: nothing was measured, which is no clean result). */
struct mutate_tally {
	bool all_killed;
	size_t judged;
};

struct mutate_flags {
	unsigned ops;
	double kill_below;
	const char *save_dir;
	bool json, colour;
	/* The targets a case's judging asks for that cannot run here, found once before the
	 * first case, since their catches are missing from a score: comma-separated for the
	 * text, and as a JSON array (NULL: none). */
	char *unavailable, *unavailable_json;
	bool probed;
};

/* A mutant as a JSON object. */
static void mutant_json(const struct mutant_set *s, size_t i)
{
	const struct mutant *m = &s->items[i];
	struct strbuf out = { 0 };
	strbuf_puts(&out, "{\"subject\":");
	json_string(&out, s->subject);
	strbuf_printf(&out, ",\"mutant\":%zu,\"file\":", i + 1);
	json_string(&out, m->file);
	strbuf_printf(&out, ",\"line\":%d,\"col\":%d,\"operator\":\"%s\",\"what\":", m->m.line,
		      m->m.col, mut_operator_name(m->m.op));
	json_string(&out, m->m.what);
	strbuf_printf(&out, ",\"fate\":\"%s\",\"by\":", mutant_fate_name(m->fate));
	json_string(&out, m->by ? m->by : "");
	if (s->nchecks) {
		strbuf_puts(&out, ",\"caught_by\":[");
		bool first = true;
		for (size_t c = 0; c < s->nchecks; c++)
			if (m->caught_by && m->caught_by[c]) {
				strbuf_puts(&out, first ? "" : ",");
				json_string(&out, s->checks[c]);
				first = false;
			}
		strbuf_puts(&out, "]");
	}
	strbuf_puts(&out, "}\n");
	fputs(out.data, stdout);
	strbuf_free(&out);
}

/* A mutant as a line of text, as it is judged. */
static void mutant_line(const struct mutant_set *s, size_t i)
{
	const struct mutant *m = &s->items[i];
	printf("%-10s %-8s %s:%d:%d  %s", mutant_fate_name(m->fate), mut_operator_name(m->m.op),
	       m->file, m->m.line, m->m.col, m->m.what);
	if (m->by && *m->by)
		printf("  [%s]", m->by);
	putchar('\n');
	fflush(stdout);
}

struct judging_view {
	const struct mutate_flags *f;
};

static void judged(void *ctx, const struct mutant_set *s, size_t index)
{
	const struct judging_view *v = ctx;
	if (v->f->json)
		mutant_json(s, index);
	else
		mutant_line(s, index);
}

/* Whether a subject's score lacks the unavailable targets' catches: a case's does; an
 * assignment's mutants are graded on the targets grading requires, or not at all. */
static bool score_lacks_targets(const struct mutant_set *s, const struct mutate_flags *f)
{
	return s->nchecks == 0 && f->unavailable != NULL;
}

/* The survivors at their source lines, with a caret, on stderr; then the score. */
static void summary(const struct mutant_set *s, const struct mutate_flags *f)
{
	struct mutation_score sc = mutation_score_of(s);
	bool lacks_targets = score_lacks_targets(s, f);
	if (f->json) {
		printf("{\"subject\":");
		struct strbuf out = { 0 };
		json_string(&out, s->subject);
		fputs(out.data, stdout);
		strbuf_free(&out);
		printf(",\"score\":%.4f,\"killed\":%zu,\"survived\":%zu,\"weak\":%zu,"
		       "\"stillborn\":%zu,\"timed_out\":%zu,\"unjudged\":%zu,\"mutants\":%zu",
		       mutation_score_value(&sc), sc.killed, sc.survived, sc.weak, sc.stillborn,
		       sc.timed_out, sc.unjudged, sc.total);
		if (lacks_targets)
			printf(",\"unavailable\":%s", f->unavailable_json);
		printf("}\n");
		return;
	}
	struct diag_list survivors = { 0 };
	for (size_t i = 0; i < s->count; i++) {
		const struct mutant *m = &s->items[i];
		if (m->fate == FATE_SURVIVED || m->fate == FATE_TIMED_OUT)
			diag_add(&survivors, DIAG_WARNING, m->file, m->m.line, m->m.col,
				 "mutant %zu %s (%s): %s", i + 1,
				 m->fate == FATE_TIMED_OUT		   ? "timed out"
				 : m->kept >= 0 && m->kept < 1 ? "survived, a weak catch"
								 : "survived",
				 mut_operator_name(m->m.op), m->m.what);
	}
	cli_print_diags(&survivors);
	diag_list_free(&survivors);
	char weak[64] = "";
	if (sc.weak)
		snprintf(weak, sizeof weak, " (%zu of them weak catches)", sc.weak);
	printf("score: %s: %zu of %zu mutants killed (%.1f%%); %zu survived%s, %zu timed out, "
	       "%zu stillborn (do not build)%s",
	       s->subject, sc.killed, sc.total - sc.stillborn - sc.unjudged,
	       100.0 * mutation_score_value(&sc), sc.survived, weak, sc.timed_out, sc.stillborn,
	       sc.unjudged ? "; the run was stopped before every mutant was judged" : "");
	if (lacks_targets)
		printf("; judged without %s (unavailable), so a survivor may be one only it "
		       "would catch",
		       f->unavailable);
	printf("\n");
}

/* A subject judged: its score printed and added to the tally, its mutants saved where
 * asked; the status to go on with (a stopped run's, else 0). */
static int subject_done(const struct mutant_set *s, const struct mutate_flags *f,
			struct mutate_tally *tally)
{
	summary(s, f);
	struct mutation_score sc = mutation_score_of(s);
	tally->all_killed &= sc.survived == 0 && sc.timed_out == 0;
	tally->judged += sc.total - sc.stillborn - sc.unjudged;
	if (f->save_dir && mutants_save(s, f->save_dir) > 0)
		fprintf(stderr, "clharness: cannot write every mutant to %s\n", f->save_dir);
	return interrupt_signal() ? cli_stopped_status() : 0;
}

/* --- a case --- */

/* A case's mutants are judged on every target it selects that can run: one that cannot
 * (Oclgrind not installed) takes its catches out of the score, which then undercounts what
 * the case's checks catch. Said once, before the first case, and with each score. */
static void probe_targets(const struct cli_shared *shared, struct mutate_flags *f)
{
	if (f->probed)
		return;
	f->probed = true;
	struct selection sel;
	struct run_options opt = { .repeat = 1 };
	selection_open(&sel, shared->patterns, shared->npatterns, NULL, 0, &opt, shared->timeout_s);
	struct strbuf names = { 0 }, json = { 0 };
	for (size_t m = 0; m < sel.nmissing; m++) {
		const char *target = selection_missing_name(&sel, m);
		char *why = xasprintf("%s is unavailable, so no mutant is judged on it and a "
				      "survivor may be one only it would catch: %s",
				      target, sel.missing[m].reason);
		fprintf(stderr, "clharness: note: %s\n", why);
		annotate_diag(NULL, 0, 0, DIAG_WARNING, why);
		free(why);
		strbuf_printf(&names, "%s%s", names.len ? "," : "", target);
		strbuf_puts(&json, json.len ? "," : "[");
		json_string(&json, target);
	}
	if (names.len) {
		strbuf_puts(&json, "]");
		f->unavailable = strbuf_take(&names);
		f->unavailable_json = strbuf_take(&json);
	}
	strbuf_free(&names);
	strbuf_free(&json);
	selection_free(&sel);
}

static int mutate_one_case(const char *path, struct mutate_flags *f,
			   const struct cli_shared *shared, struct mutate_tally *tally)
{
	struct diag_list diags = { 0 };
	struct mutant_set s;
	int found = mutant_set_of_case(path, f->ops, &s, &diags);
	if (found != 0) {
		/* Ctrl-C while clang read the kernel stopped clang: no fault of the kernel. */
		bool stopped = found < 0 && interrupt_signal();
		if (!stopped)
			cli_print_diags(&diags);
		diag_list_free(&diags);
		return stopped ? cli_stopped_status() : found < 0 ? EXIT_USAGE : 0;
	}
	probe_targets(shared, f);
	if (!f->json)
		printf("mutate: %s: %zu mutants of %s%s\n", path, s.count,
		       s.nfiles ? s.files[0] : "?", s.nfiles > 1 ? " and its other kernels" : "");
	struct judging_view view = { f };
	struct case_judging j = { .patterns = shared->patterns,
				  .npatterns = shared->npatterns,
				  .timeout_s = shared->timeout_s,
				  .jobs = shared->jobs,
				  .judged = judged,
				  .ctx = &view };
	int status = 0;
	if (mutate_case(&s, path, &j, &diags) < 0) {
		cli_print_diags(&diags);
		status = interrupt_signal() ? cli_stopped_status() : EXIT_USAGE;
	} else {
		status = subject_done(&s, f, tally);
	}
	diag_list_free(&diags);
	mutant_set_free(&s);
	return status;
}

/* --- an assignment --- */

/* The reference solution: the kernel file of the case the assignment's checks run, with
 * the name its kernel has there and the one a submission gives it. */
struct solution {
	char *path, *options;
	char *kernel; /* as the case names its first step's kernel */
	char *as;     /* as the assignment declares it */
	char **kernels; /* every kernel of the file the case's steps run */
	size_t nkernels;
};

static bool solution_of(const struct assignment *a, struct solution *sol, struct diag_list *diags)
{
	*sol = (struct solution){ 0 };
	for (size_t c = 0; c < a->nchecks && sol->path == NULL; c++) {
		struct test_case *tc = case_load(a->checks[c].case_path, diags);
		if (tc == NULL)
			return false;
		const struct kernel_proto *k =
			tc->nsteps ? assignment_kernel_of_step(a, tc, 0) : NULL;
		if (k) {
			sol->path = xstrdup(tc->steps[0].kernel_path);
			sol->options = tc->options ? xstrdup(tc->options) : NULL;
			sol->kernel = xstrdup(tc->steps[0].kernel_name);
			sol->as = xstrdup(k->name);
			sol->kernels = xcalloc(tc->nsteps + 1, sizeof *sol->kernels);
			for (size_t i = 0; i < tc->nsteps; i++)
				if (strcmp(tc->steps[i].kernel_path, sol->path) == 0)
					sol->kernels[sol->nkernels++] =
						xstrdup(tc->steps[i].kernel_name);
		}
		case_free(tc);
	}
	if (sol->path == NULL)
		diag_add(diags, DIAG_ERROR, a->path, 0, 0,
			 "no check names a case whose kernel is one the assignment declares");
	return sol->path != NULL;
}

static void solution_free(struct solution *sol)
{
	free(sol->path);
	free(sol->options);
	free(sol->kernel);
	free(sol->as);
	for (size_t i = 0; i < sol->nkernels; i++)
		free(sol->kernels[i]);
	free(sol->kernels);
}

/* Where the kernel's name starts in the solution's text, to be renamed as a submission
 * names it; SIZE_MAX where it needs no renaming or cannot be found. */
static size_t name_offset(const struct solution *sol, const char *text)
{
	if (strcmp(sol->kernel, sol->as) == 0)
		return SIZE_MAX;
	struct kernel_source ks;
	struct diag_list diags = { 0 };
	size_t at = SIZE_MAX;
	if (kernelsrc_read(sol->path, sol->kernel, sol->options, &ks, &diags) == 0) {
		const char *p = text;
		for (int line = 1; line < ks.line && p; line++)
			p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
		if (p && strncmp(p + ks.col - 1, sol->kernel, strlen(sol->kernel)) == 0)
			at = (size_t)(p + ks.col - 1 - text);
		kernel_source_free(&ks);
	}
	diag_list_free(&diags);
	return at;
}

/* `text` (the solution, or a mutant of it: mutation m, NULL for none) with its kernel
 * named as the assignment declares it. */
static char *as_submission(const struct solution *sol, size_t at, const char *text,
			   const struct mutation *m)
{
	if (at == SIZE_MAX)
		return xstrdup(text);
	if (m && m->end <= at)
		at = at + strlen(m->replacement) - (m->end - m->start);
	return xasprintf("%.*s%s%s", (int)at, text, sol->as, text + at + strlen(sol->kernel));
}

/* Writes the original and each mutant of its own text as students of a class folder,
 * each kernel named as the assignment declares it. */
static int write_class(const struct mutant_set *s, const struct solution *sol, const char *dir,
		       struct submission *subs, size_t *n)
{
	*n = 0;
	size_t at = name_offset(sol, s->sources[0]);
	for (size_t i = 0; i <= s->count; i++) {
		if (i > 0 && s->items[i - 1].same_as != i - 1)
			continue;
		char *student = i == 0 ? xstrdup("original") : xasprintf("mutant%03zu", i);
		char *path = xasprintf("%s/%s.cl", dir, student);
		FILE *f = fopen(path, "w");
		char *text = i == 0 ? as_submission(sol, at, s->sources[0], NULL)
				    : as_submission(sol, at, s->items[i - 1].text,
						    &s->items[i - 1].m);
		bool ok = f && fputs(text, f) >= 0;
		free(text);
		if (f && fclose(f) != 0)
			ok = false;
		if (!ok) {
			fprintf(stderr, "clharness: cannot write %s: %s\n", path, strerror(errno));
			free(student);
			free(path);
			return -1;
		}
		subs[(*n)++] = (struct submission){ .student = student, .path = path };
	}
	return 0;
}

/* A mutant's fate from its grade beside the original's: caught by every check where it
 * earned less; killed only where it kept less than `kill_below` of the original's points,
 * else a survivor that lost some (a weak catch, its points said). Speed checks are not
 * asked, since a timing's noise would read as a catch. */
static void judge_grade(const struct assignment *a, const struct student_grade *original,
			const struct student_grade *g, double kill_below, struct mutant *m)
{
	m->caught_by = xcalloc(a->nchecks + 1, sizeof *m->caught_by);
	if (g->student == NULL) {
		m->fate = FATE_UNJUDGED;
		return;
	}
	if (g->blocker) {
		m->fate = g->blocker_verdict == VERDICT_BUILD_ERROR ? FATE_STILLBORN
			  : g->blocker_verdict == VERDICT_TIMEOUT   ? FATE_TIMED_OUT
								    : FATE_KILLED;
		m->by = xstrdup(g->blocker);
		m->kept = 0;
		for (size_t c = 0; c < a->nchecks && m->fate == FATE_KILLED; c++)
			m->caught_by[c] = a->checks[c].kind != GRADE_SPEED;
		return;
	}
	struct strbuf by = { 0 };
	bool caught = false, only_timeouts = true;
	double earned = 0, most = 0;
	for (size_t c = 0; c < a->nchecks; c++) {
		if (a->checks[c].kind == GRADE_SPEED)
			continue;
		earned += g->checks[c].points;
		most += original->checks[c].points;
		if (grade_round(g->checks[c].points) < grade_round(original->checks[c].points)) {
			m->caught_by[c] = true;
			caught = true;
			only_timeouts &= g->checks[c].verdicts == (1u << VERDICT_TIMEOUT);
			const char *why = g->checks[c].summary;
			strbuf_printf(&by, "%s%s %.4g of %.4g", by.len ? "; " : "", a->checks[c].name,
				      g->checks[c].points, original->checks[c].points);
			if (why && *why)
				strbuf_printf(&by, " (%s)", why);
		}
	}
	m->kept = most > 0 ? earned / most : 1;
	bool enough = m->kept < kill_below;
	m->fate = !caught		 ? FATE_SURVIVED
		  : only_timeouts	 ? FATE_TIMED_OUT
		  : enough		 ? FATE_KILLED
					 : FATE_SURVIVED;
	if (caught && !enough && !only_timeouts) {
		char *lost = strbuf_take(&by);
		strbuf_printf(&by, "a weak catch: it keeps %.1f%% of the points, at least the "
				   "%.0f%% --kill-below asks it to lose: %s",
			      100 * m->kept, 100 * kill_below, lost);
		free(lost);
	}
	m->by = strbuf_take(&by);
}

/* The matrix of checks against mutants, and what it says of each check. */
static void print_matrix(const struct assignment *a, const struct mutant_set *s)
{
	printf("checks against mutants (x: the check took points from it):\n");
	for (size_t c = 0; c < a->nchecks; c++)
		printf("  %c %s%s\n", (int)('A' + (c % 26)), a->checks[c].name,
		       a->checks[c].kind == GRADE_SPEED ? " (speed: not asked)" : "");
	printf("  mutant ");
	for (size_t c = 0; c < a->nchecks; c++)
		printf(" %c", (int)('A' + (c % 26)));
	printf("\n");
	for (size_t i = 0; i < s->count; i++) {
		const struct mutant *m = &s->items[i];
		printf("  %6zu ", i + 1);
		for (size_t c = 0; c < a->nchecks; c++)
			printf(" %c", m->caught_by && m->caught_by[c] ? 'x' : '.');
		printf("  %s %s:%d %s\n", mutant_fate_name(m->fate), mut_operator_name(m->m.op),
		       m->m.line, m->m.what);
	}
	/* The visible correctness checks: what tells a student their output is wrong. */
	size_t visible_correct = 0;
	for (size_t c = 0; c < a->nchecks; c++)
		visible_correct += a->checks[c].kind == GRADE_CORRECT && !a->checks[c].hidden;
	for (size_t c = 0; c < a->nchecks; c++) {
		if (a->checks[c].kind == GRADE_SPEED)
			continue;
		size_t alone = 0, any = 0;
		for (size_t i = 0; i < s->count; i++) {
			const struct mutant *m = &s->items[i];
			if (!m->caught_by || !m->caught_by[c])
				continue;
			any++;
			size_t others = 0;
			for (size_t d = 0; d < a->nchecks; d++)
				others += d != c && m->caught_by[d];
			alone += others == 0;
		}
		if (alone > 0)
			continue;
		const struct grade_check *check = &a->checks[c];
		if (any == 0) {
			printf("check %s takes points from no mutant\n", check->name);
			continue;
		}
		/* What it catches, said; never an invitation to drop the one check that tells
		 * students their output is wrong. */
		printf("check %s takes points from %zu mutant%s, each of which another check "
		       "catches too%s\n",
		       check->name, any, any == 1 ? "" : "s",
		       check->kind == GRADE_CORRECT && !check->hidden && visible_correct == 1
			       ? "; it is the only visible correctness check, the one that tells a "
				 "student their output is wrong, so it is no spare"
			       : "");
	}
	for (size_t i = 0; i < s->count; i++) {
		const struct mutant *m = &s->items[i];
		if (m->fate != FATE_SURVIVED)
			continue;
		if (m->kept >= 1 || m->kept < 0)
			printf("mistake that loses no points: mutant %zu, %s:%d: %s\n", i + 1,
			       m->file, m->m.line, m->m.what);
		else
			printf("mistake that keeps %.1f%% of the points: mutant %zu, %s:%d: %s\n",
			       100 * m->kept, i + 1, m->file, m->m.line, m->m.what);
	}
}

static int mutate_assignment(const char *path, const struct mutate_flags *f,
			     const struct cli_shared *shared, struct mutate_tally *tally)
{
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load(path, &diags);
	struct solution sol = { 0 };
	bool have_solution = a && solution_of(a, &sol, &diags);
	const char *solution = sol.path;
	struct mutant_set s = { 0 };
	int status = 0;
	char *device = NULL, *simulator = NULL, *dir_template = temp_path("mutants");
	char *dir = NULL;
	struct submission *subs = NULL;
	struct student_grade *grades = NULL;
	size_t n = 0;
	int found = have_solution ? mutant_set_of_file(path, solution, sol.options, f->ops,
						       sol.kernels, sol.nkernels, &s, &diags)
				  : -1;
	if (found < 0) {
		if (interrupt_signal()) {
			status = cli_stopped_status();
			goto out;
		}
		cli_print_diags(&diags);
		status = EXIT_USAGE;
		goto out;
	}
	s.nchecks = a->nchecks;
	s.checks = xcalloc(a->nchecks + 1, sizeof *s.checks);
	for (size_t c = 0; c < a->nchecks; c++)
		s.checks[c] = xstrdup(a->checks[c].name);
	if (!f->json)
		printf("mutate: %s: %zu mutants of its reference solution %s\n", path, s.count,
		       solution);
	status = cli_grading_targets(a, shared->npatterns ? shared->patterns[0] : NULL, &device,
				     &simulator);
	dir = status == 0 && mkdtemp(dir_template) ? xstrdup(dir_template) : NULL;
	subs = xcalloc(s.count + 2, sizeof *subs);
	if (status != 0 || dir == NULL || write_class(&s, &sol, dir, subs, &n) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	struct grade_options gopt = { .device = device, .simulator = simulator,
				      .wall_s = shared->timeout_s };
	if (gopt.wall_s == 0) {
		char *note = NULL;
		grade_calibrate(a, &gopt, &note);
		if (note)
			fprintf(stderr, "clharness: warning: %s\n", note);
		free(note);
	}
	struct batch_options bo = { .assignment = a, .grade = &gopt, .out_dir = dir,
				    .jobs = shared->jobs };
	grades = xcalloc(n + 1, sizeof *grades);
	batch_grade(&bo, subs, n, grades);
	grade_options_free(&gopt);
	const struct student_grade *original = &grades[0];
	const char *failed = NULL;
	for (size_t c = 0; original->student && !original->blocker && c < a->nchecks; c++)
		if (a->checks[c].kind != GRADE_SPEED && failed == NULL &&
		    !check_grade_passed(&a->checks[c], &original->checks[c]))
			failed = a->checks[c].name;
	if (original->student == NULL || original->blocker || failed) {
		fprintf(stderr,
			"clharness: %s: its reference solution %s %s%s: its checks must pass it "
			"before its mutants say anything\n",
			path, solution, original->blocker ? "is blocked: " : "fails the check ",
			original->blocker ? original->blocker : failed ? failed : "(not graded)");
		status = interrupt_signal() ? cli_stopped_status() : EXIT_USAGE;
		goto out;
	}
	for (size_t k = 1, i = 0; i < s.count; i++) {
		struct mutant *m = &s.items[i];
		if (m->same_as != i)
			continue;
		judge_grade(a, original, &grades[k++], f->kill_below, m);
	}
	for (size_t i = 0; i < s.count; i++) {
		struct mutant *m = &s.items[i], *first = &s.items[m->same_as];
		if (m->same_as != i) {
			m->fate = first->fate;
			m->by = xasprintf("as mutant %zu, of the same text", m->same_as + 1);
			m->caught_by = xcalloc(a->nchecks + 1, sizeof *m->caught_by);
			if (first->caught_by)
				memcpy(m->caught_by, first->caught_by,
				       a->nchecks * sizeof *m->caught_by);
		}
		judged(&(struct judging_view){ f }, &s, i);
	}
	if (!f->json)
		print_matrix(a, &s);
	status = subject_done(&s, f, tally);
out:
	for (size_t i = 0; i < n; i++) {
		if (subs[i].path)
			unlink(subs[i].path);
		char *report = xasprintf("%s/%s.json", dir, subs[i].student);
		unlink(report);
		free(report);
		report = xasprintf("%s/%s.txt", dir, subs[i].student);
		unlink(report);
		free(report);
		report = xasprintf("%s/" GRADE_INSTRUCTOR_DIR "/%s.txt", dir, subs[i].student);
		unlink(report);
		free(report);
		free(subs[i].student);
		free(subs[i].path);
		if (grades)
			student_grade_free(&grades[i]);
	}
	if (dir) {
		char *instructor = xasprintf("%s/" GRADE_INSTRUCTOR_DIR, dir);
		rmdir(instructor);
		free(instructor);
		rmdir(dir);
	}
	free(dir);
	free(dir_template);
	free(subs);
	free(grades);
	free(device);
	free(simulator);
	solution_free(&sol);
	mutant_set_free(&s);
	assignment_free(a);
	diag_list_free(&diags);
	return status;
}

/* An assignment file names kernels to write and checks; a case file neither. */
static bool is_assignment(const char *path)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	bool yes = text && strstr(text, "\nchecks:") && strstr(text, "\nkernels:");
	free(text);
	return yes;
}

static int mutate_main(int argc, char **argv)
{
	/* A mutant that hangs (a loop bound moved past its end) costs one time-out each:
	 * short, since the catalogue's slowest run takes about a second. */
	struct cli_shared shared = { .timeout_s = 10 };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	shared.jobs = cores > 0 ? (unsigned)cores : 1;
	struct mutate_flags f = { .ops = MUT_ALL_OPERATORS, .kill_below = DEFAULT_KILL_BELOW };
	struct cli_parser p;
	cli_parser_open(&p, &cli_mutate, argc, argv);
	int id;
	char *value;
	bool timeout_given = false;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0) {
		if (id == OPT_OPERATORS) {
			char *why = NULL;
			if (mut_operators_parse(value, &f.ops, &why) < 0) {
				cli_usage_error("--operators: %s", why);
				free(why);
				p.status = EXIT_USAGE;
				id = CLI_STOP;
				break;
			}
		} else if (id == OPT_SAVE) {
			f.save_dir = value;
		} else if (id == OPT_KILL_BELOW) {
			char *end;
			double share = strtod(value, &end);
			if (end != value && *end == '%' && end[1] == '\0') {
				share /= 100;
				end++;
			}
			if (end == value || *end != '\0' || !(share > 0 && share <= 1)) {
				cli_usage_error("--kill-below takes a share of the points above 0 and "
						"at most 1, as 0.5 or 50%%, found '%s'",
						value);
				p.status = EXIT_USAGE;
				id = CLI_STOP;
				break;
			}
			f.kill_below = share;
		}
	}
	for (int i = 1; i < argc; i++)
		timeout_given |= strcmp(argv[i], "--timeout") == 0 ||
				 strncmp(argv[i], "--timeout=", 10) == 0;
	cli_parser_close(&p);
	if (id == CLI_STOP) {
		cli_shared_free(&shared);
		return p.status;
	}
	f.json = shared.json;
	if (p.next >= argc) {
		cli_shared_free(&shared);
		return cli_usage_error("mutate needs a case, a folder of cases or an assignment");
	}
	if (!mutsites_available()) {
		cli_shared_free(&shared);
		fprintf(stderr, "clharness: mutate finds mistakes' places with libclang, which this "
				"clharness cannot load: install libclang-dev and build it again\n");
		return EXIT_USAGE;
	}
	int status = 0;
	struct mutate_tally tally = { .all_killed = true };
	interrupt_install();
	for (int i = p.next; i < argc && status == 0 && !interrupt_signal(); i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) && is_assignment(argv[i])) {
			struct cli_shared own = shared;
			own.timeout_s = timeout_given ? shared.timeout_s : 0;
			status = mutate_assignment(argv[i], &f, &own, &tally);
			continue;
		}
		struct walk paths = { 0 };
		char *one[] = { argv[0], argv[i] };
		if (cli_collect_cases(2, one, 1, &paths) < 0) {
			status = EXIT_USAGE;
			walk_free(&paths);
			break;
		}
		for (size_t k = 0; k < paths.count && status == 0 && !interrupt_signal(); k++)
			status = mutate_one_case(paths.paths[k], &f, &shared, &tally);
		walk_free(&paths);
	}
	cli_shared_free(&shared);
	free(f.unavailable);
	free(f.unavailable_json);
	if (status == 0 && interrupt_signal())
		status = cli_stopped_status();
	if (status == 0 && tally.judged == 0) {
		fprintf(stderr, "clharness: mutate: no mutant was judged, so nothing was measured "
				"(every subject was a known bug, or had no place to mutate)\n");
		return EXIT_SKIP;
	}
	return status != 0 ? status : tally.all_killed ? 0 : EXIT_MISMATCH;
}
