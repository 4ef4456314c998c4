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
#include "mutate/graded.h"
#include "mutate/mutate.h"
#include "results/report.h"

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
	/* An assignment's: the share of the reference's points the mutant kept. */
	if (m->kept >= 0)
		strbuf_printf(&out, ",\"kept\":%.4f", m->kept);
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
				 m->fate == FATE_TIMED_OUT ? "timed out"
				 : mutant_weak(m)	   ? "survived, a weak catch"
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
		if (!mutant_weak(m))
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
	struct mutant_set s = { 0 };
	char *solution = NULL, *cause = NULL;
	int status = 0;
	if (a == NULL || graded_mutants_find(a, f->ops, &s, &solution, &diags) < 0) {
		if (interrupt_signal()) {
			status = cli_stopped_status();
			goto out;
		}
		cli_print_diags(&diags);
		status = EXIT_USAGE;
		goto out;
	}
	if (!f->json)
		printf("mutate: %s: %zu mutants of its reference solution %s\n", path, s.count,
		       solution);
	struct graded_judging j = { .device_pattern = shared->npatterns ? shared->patterns[0]
									: NULL,
				    .timeout_s = shared->timeout_s,
				    .jobs = shared->jobs,
				    .kill_below = f->kill_below };
	char *warning = NULL;
	if (graded_mutants_judge(a, &s, &j, &warning, &cause) < 0) {
		free(warning);
		if (interrupt_signal()) {
			status = cli_stopped_status();
			goto out;
		}
		fprintf(stderr, "clharness: %s: %s\n", path, cause);
		status = EXIT_USAGE;
		goto out;
	}
	if (warning)
		fprintf(stderr, "clharness: warning: %s\n", warning);
	free(warning);
	for (size_t i = 0; i < s.count; i++)
		judged(&(struct judging_view){ f }, &s, i);
	if (!f->json)
		print_matrix(a, &s);
	status = subject_done(&s, f, tally);
out:
	free(solution);
	free(cause);
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
