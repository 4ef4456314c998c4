/* grade.c - clharness grade: every submission against an assignment, reports and a
 * class table. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/shared.h"
#include "exec/sandbox.h"
#include "exec/select.h"
#include "grade/assignment.h"
#include "grade/batch.h"
#include "grade/grade.h"
#include "grade/gradeout.h"
#include "grade/gradereport.h"
#include "grade/session.h"
#include "grade/submission.h"

enum { OPT_RESUME = CLI_OWN, OPT_GRADESCOPE, OPT_MIN_SCORE, OPT_NO_SANDBOX, OPT_STUDENT_LOG,
       OPT_EACH_A_STUDENT };

static const struct cli_option grade_opts[] = {
	CLI_OPT_JOBS("grade N submissions side by side (default 1)"),
	{ 'o', "out", "DIR",
	  "write each student's NAME.txt and NAME.json, and class.csv and class.md, to DIR "
	  "(default grades)" },
	CLI_OPT_DEVICE("the device for the correct and speed checks (default: the first "
		       "device `clharness devices` lists)"),
	CLI_OPT_TIMEOUT("a run's wall-clock limit (default: after its build, 50 times the "
			"reference kernel's slowest run, at least 2 s, at most the assignment's "
			"wall limit)"),
	CLI_OPT_SHARD("grade shard K of N: every N-th student from the K-th, in name order; "
		      "writes their reports and shard-K-of-N.json, and `clharness merge` writes "
		      "the class table from all shards"),
	{ OPT_RESUME, "resume", NULL,
	  "keep each student whose report an earlier grading into DIR finished, and grade only "
	  "the rest" },
	{ OPT_GRADESCOPE, "gradescope", "DIR",
	  "also write Gradescope's DIR/results.json (one submission)" },
	CLI_OPT_JUNIT("also write a JUnit XML report: a test case a check, failed unless it "
		      "earned all its points"),
	CLI_OPT_SARIF,
	CLI_OPT_HTML,
	{ OPT_MIN_SCORE, "min-score", "P", "exit 1 unless every student scored at least P points" },
	{ OPT_EACH_A_STUDENT, "each-a-student", NULL,
	  "each SUBMISSION is one student's hand-in, a folder however many .cl files it holds "
	  "(GitHub Classroom's form; --gradescope implies it): not a class" },
	{ OPT_STUDENT_LOG, "student-log", NULL,
	  "print each student's own report, hidden checks as passed or failed, instead of the "
	  "class table and the points of each student graded: for a log the student reads (a "
	  "GitHub Classroom job); the instructor's files are written as ever" },
	{ OPT_NO_SANDBOX, "no-sandbox", NULL,
	  "grade even where the sandbox cannot confine the submissions in full (no Landlock or "
	  "no seccomp in this Linux kernel, or CLHARNESS_SANDBOX=off): a kernel compiled to "
	  "native code may then reach this machine's files, processes and network. Without it, "
	  "grade refuses to start there" },
	{ 0 },
};

static int grade_main(int argc, char **argv);

const struct cli_command cli_grade = {
	.name = "grade",
	.synopsis = "[OPTION]... ASSIGNMENT SUBMISSION...",
	.summary = "grade students' kernels against an assignment: reports and a class table",
	.about = "Grades each SUBMISSION against the ASSIGNMENT's checks (correctness over sizes "
		 "and work-group sizes, race freedom and memory safety under Oclgrind, speed "
		 "against the reference): a report a student and the class table on standard "
		 "output. A SUBMISSION is a student's .cl file, a student's folder with one .cl "
		 "file, or a folder of those.",
	.options = grade_opts,
	.after = "On a terminal a progress line shows students done, the one being graded, the "
		 "time spent and an estimate of the time left.",
	.main = grade_main,
};


/* What grade says as it goes: a line a student on stderr, and on a terminal a progress
 * line under them, redrawn in place, that a pipe or a CI log never gets. */
struct grade_watch {
	const struct assignment *a;
	bool student_log; /* no points: a hidden check's would show in the total */
	bool live;
	bool shown; /* the progress line is on the screen */
	uint64_t start_ns;
	size_t resumed;
};

/* Whether stderr is a person's terminal: not a pipe, a file, or a CI job's log. */
static bool progress_wanted(void)
{
	const char *term = getenv("TERM");
	return isatty(STDERR_FILENO) && getenv("CI") == NULL && term && strcmp(term, "dumb") != 0;
}

static void progress_clear(struct grade_watch *w)
{
	if (w->shown)
		fputs("\r\033[K", stderr);
	w->shown = false;
}

static void grade_progress(void *ctx, const struct student_grade *g, double seconds, bool resumed)
{
	struct grade_watch *w = ctx;
	progress_clear(w);
	if (resumed) {
		w->resumed++;
		fprintf(stderr, "kept %s: %.2f / %.2f%s%s (its report from an earlier grading)\n",
			g->student, g->total, w->a->max_points, g->blocker ? ", " : "",
			g->blocker ? verdict_name(g->blocker_verdict) : "");
		return;
	}
	if (w->student_log)
		fprintf(stderr, "graded %s%s%s (%.1f s)\n", g->student, g->blocker ? ": " : "",
			g->blocker ? verdict_name(g->blocker_verdict) : "", seconds);
	else
		fprintf(stderr, "graded %s: %.2f / %.2f%s%s (%.1f s)\n", g->student, g->total,
			w->a->max_points, g->blocker ? ", " : "",
			g->blocker ? verdict_name(g->blocker_verdict) : "", seconds);
}

static void grade_tick(void *ctx, size_t done, size_t total, const char *current)
{
	struct grade_watch *w = ctx;
	if (!w->live)
		return;
	double elapsed = (clock_now_ns() - w->start_ns) / 1e9;
	size_t graded = done - w->resumed;
	fprintf(stderr, "\r\033[K[%zu/%zu] grading %s, %.0f s", done, total, current ? current : "",
		elapsed);
	if (graded > 0)
		fprintf(stderr, ", about %.0f s left", elapsed / graded * (total - done));
	w->shown = true;
}

/* The grades of the students graded, in order: those a stop left ungraded dropped. */
static size_t graded_only(struct student_grade *grades, size_t n)
{
	size_t graded = 0;
	for (size_t i = 0; i < n; i++) {
		if (grades[i].student == NULL)
			continue;
		struct student_grade g = grades[i];
		grades[i] = (struct student_grade){ 0 };
		grades[graded++] = g;
	}
	return graded;
}

/* --min-score: 1 (and says who) when a student's total is below it; the total itself
 * only where it is no student's log, as it holds the hidden checks' points. */
static int below_min_score(const struct student_grade *grades, size_t n, double min_score,
			   bool student_log)
{
	size_t below = 0;
	for (size_t i = 0; i < n; i++)
		if (grades[i].total < min_score) {
			if (student_log)
				fprintf(stderr, "clharness: %s scored below the --min-score of %.2f\n",
					grades[i].student, min_score);
			else
				fprintf(stderr,
					"clharness: %s scored %.2f, below the --min-score of %.2f\n",
					grades[i].student, grades[i].total, min_score);
			below++;
		}
	return below ? EXIT_MISMATCH : 0;
}

/* clharness grade: every submission against an assignment, reports and a class table. */
/* What grade's own options said. */
struct grade_flags {
	const char *out_dir;
	bool resume;
	struct class_outputs outputs;
	double min_score;
	bool unsandboxed;
	bool student_log;
	bool each_a_student;
};

/* Takes one of grade's own options; -1 after a usage error. */
static int take_grade_option(struct grade_flags *f, int id, const char *value)
{
	char *end;
	switch (id) {
	case 'o':
		f->out_dir = value;
		return 0;
	case OPT_RESUME:
		f->resume = true;
		return 0;
	case OPT_GRADESCOPE:
		f->outputs.gradescope_dir = value;
		return 0;
	case OPT_NO_SANDBOX:
		f->unsandboxed = true;
		return 0;
	case OPT_STUDENT_LOG:
		f->student_log = true;
		return 0;
	case OPT_EACH_A_STUDENT:
		f->each_a_student = true;
		return 0;
	case OPT_MIN_SCORE:
		f->min_score = strtod(value, &end);
		if (end == value || *end != '\0' || !(f->min_score >= 0)) {
			cli_usage_error(
				"--min-score takes points, a number of 0 or more, found '%s'",
				value);
			return -1;
		}
		return 0;
	}
	return 0;
}

/* Submissions are untrusted code: grading starts only where the sandbox confines them in
 * full, or where the instructor said --no-sandbox, which it then repeats. Returns 0, or
 * EXIT_USAGE after saying why not. */
static int sandbox_or_consent(bool unsandboxed)
{
	struct sandbox_support support;
	sandbox_probe(&support);
	char *shortfall = sandbox_shortfall(&support);
	int status = 0;
	if (!unsandboxed && sandbox_switched_off()) {
		fprintf(stderr, "clharness: grade: refusing to run students' kernels without the "
				"sandbox, which CLHARNESS_SANDBOX=off switches off: unset it, or "
				"pass --no-sandbox to grade unprotected\n");
		status = EXIT_USAGE;
	} else if (!unsandboxed && shortfall) {
		fprintf(stderr,
			"clharness: grade: refusing to run students' kernels without the full "
			"sandbox: %s. Grade on a machine whose Linux kernel has Landlock and "
			"seccomp (README.md, \"What grading protects\"), or pass --no-sandbox to "
			"grade unprotected\n",
			shortfall);
		status = EXIT_USAGE;
	} else if (unsandboxed) {
		fprintf(stderr,
			"clharness: warning: --no-sandbox: students' kernels run unconfined, "
			"with this user's rights over its files, processes and network\n");
	}
	free(shortfall);
	return status;
}

/* The grading itself, once the options are read: the class from argv[first] on. */
static int grade_class(int argc, char **argv, int first, const struct grade_flags *f,
		       const struct cli_shared *shared)
{
	const char *out_dir = f->out_dir;
	const char *device_pattern = shared->npatterns ? shared->patterns[0] : NULL;
	unsigned wall_s = shared->timeout_s;
	struct class_outputs outputs = f->outputs;
	outputs.junit_path = shared->junit_path;
	outputs.sarif_path = shared->sarif_path;
	outputs.html_dir = shared->html_dir;
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load(argv[first], &diags);
	struct submission *subs = NULL;
	size_t nsubs = 0, nall = 0;
	if (a && (f->each_a_student || outputs.gradescope_dir))
		submissions_collect_each(argv + first + 1, (size_t)(argc - first - 1), &subs,
					 &nall, &diags);
	else if (a)
		submissions_collect(argv + first + 1, (size_t)(argc - first - 1), &subs, &nall,
				    &diags);
	/* A shard keeps every N-th student of the whole class, in the class's order. */
	for (size_t i = 0; i < nall; i++) {
		if (!shard_holds(&shared->shard, i)) {
			free(subs[i].student);
			free(subs[i].path);
			free(subs[i].problem);
			free(subs[i].folder);
			strings_free(subs[i].files, (long)subs[i].nfiles);
			continue;
		}
		subs[nsubs++] = subs[i];
	}
	if (diag_error_count(&diags) > 0) {
		cli_print_diags(&diags);
		diag_list_free(&diags);
		submissions_free(subs, nsubs);
		assignment_free(a);
		return EXIT_USAGE;
	}
	diag_list_free(&diags);
	int status = 0;
	struct grading_session session = { 0 };
	if (outputs.gradescope_dir && nsubs != 1) {
		status = cli_usage_error(
			"--gradescope grades one submission, as Gradescope hands in "
			"one; found %zu",
			nsubs);
		goto out;
	}
	if (cli_make_out_dir(out_dir, "report") < 0 ||
	    (outputs.gradescope_dir &&
	     cli_make_out_dir(outputs.gradescope_dir, "Gradescope") < 0) ||
	    (outputs.html_dir && cli_make_out_dir(outputs.html_dir, "HTML report") < 0)) {
		status = EXIT_USAGE;
		goto out;
	}
	if (shared->shard.count &&
	    shard_manifest_write(out_dir, a, &shared->shard, subs, nsubs) < 0) {
		fprintf(stderr, "clharness: cannot write the shard's manifest to %s: %s\n", out_dir,
			strerror(errno));
		status = EXIT_USAGE;
		goto out;
	}
	status = sandbox_or_consent(f->unsandboxed);
	if (status != 0)
		goto out;
	struct session_options so = { .device_pattern = device_pattern,
				      .wall_s = wall_s,
				      .timing_lock = true,
				      .unsandboxed = f->unsandboxed };
	char *cause = NULL;
	if (grading_session_open(&session, a, &so, &cause) < 0) {
		fprintf(stderr, "clharness: %s\n", cause);
		free(cause);
		status = EXIT_USAGE;
		goto out;
	}
	if (session.limits)
		fprintf(stderr, "grade: %s\n", session.limits);
	if (session.warning)
		fprintf(stderr, "clharness: warning: %s\n", session.warning);
	const char *device = session.device, *simulator = session.simulator;
	uint64_t start = clock_now_ns();
	struct grade_watch watch = {
		.a = a, .student_log = f->student_log, .live = progress_wanted(), .start_ns = start
	};
	struct batch_options bo = { .assignment = a,
				    .grade = &session.opt,
				    .out_dir = out_dir,
				    .jobs = shared->jobs,
				    .resume = f->resume,
				    .progress = grade_progress,
				    .tick = watch.live ? grade_tick : NULL,
				    .ctx = &watch };
	struct student_grade *grades = xcalloc(nsubs + 1, sizeof *grades);
	interrupt_install();
	size_t unwritten = batch_grade(&bo, subs, nsubs, grades);
	progress_clear(&watch);
	/* After a stop, the table holds the students who were finished. */
	size_t graded = graded_only(grades, nsubs);
	grades_from_reports(out_dir, a, grades, graded);

	/* A shard's table is the merge's to write, from every shard's reports. */
	char *table = NULL;
	outputs.out_dir = out_dir;
	outputs.seconds = (clock_now_ns() - start) / 1e9;
	outputs.no_table = shared->shard.count > 0;
	struct diag_list unwritable = { 0 };
	unwritten += class_outputs_write(&outputs, a, grades, graded, &table, &unwritable);
	cli_print_diags(&unwritable);
	diag_list_free(&unwritable);
	if (f->student_log) {
		for (size_t i = 0; i < graded; i++) {
			struct strbuf text = { 0 };
			grade_report_text(&text, a, &grades[i], GRADE_FOR_STUDENT, false);
			printf("%s%s", i ? "\n" : "", text.data);
			strbuf_free(&text);
		}
	} else {
		fputs(table, stdout);
	}
	free(table);
	/* Under GitHub Actions, the visible checks' errors on the student's lines. */
	for (size_t i = 0; i < graded; i++)
		grade_annotate(a, &grades[i]);
	fprintf(stderr,
		"grade: %zu submission%s of %s graded on %s%s%s in %.1f s; reports in "
		"%s/\n",
		graded, graded == 1 ? "" : "s", a->name, device, simulator ? " and " : "",
		simulator ? simulator : "", outputs.seconds, out_dir);
	if (shared->shard.count)
		fprintf(stderr,
			"grade: shard %u of %u (%zu of the class's %zu students); "
			"`clharness merge` joins the shards\n",
			shared->shard.index, shared->shard.count, nsubs, nall);
	if (interrupt_signal()) {
		fprintf(stderr,
			"clharness: stopped by %s: %zu of %zu students graded, each of their "
			"reports whole and in the class table; the other %zu have none: "
			"--resume grades only them\n",
			strsignal(interrupt_signal()), graded, nsubs, nsubs - graded);
		status = 128 + interrupt_signal();
	}
	if (unwritten > 0) {
		fprintf(stderr, "clharness: %zu report%s could not be written to %s\n", unwritten,
			unwritten == 1 ? "" : "s", out_dir);
		status = EXIT_MISMATCH;
	}
	if (status == 0 && f->min_score >= 0)
		status = below_min_score(grades, graded, f->min_score, f->student_log);
	for (size_t i = 0; i < nsubs; i++)
		student_grade_free(&grades[i]);
	free(grades);
out:
	grading_session_close(&session);
	submissions_free(subs, nsubs);
	assignment_free(a);
	return status;
}

static int grade_main(int argc, char **argv)
{
	struct cli_shared shared = { .jobs = 1 };
	struct grade_flags f = { .out_dir = "grades", .min_score = -1 };
	struct cli_parser p;
	cli_parser_open(&p, &cli_grade, argc, argv);
	int id;
	char *value;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0)
		if (take_grade_option(&f, id, value) < 0) {
			p.status = EXIT_USAGE;
			id = CLI_STOP;
			break;
		}
	cli_parser_close(&p);
	int status = p.status;
	if (id == CLI_STOP)
		status = p.status;
	else if (shared.npatterns > 1)
		status = cli_usage_error("grade runs on one device, found --device %s and %s",
					 shared.patterns[0], shared.patterns[1]);
	else if (argc - p.next < 2)
		status = cli_usage_error("grade needs an assignment and at least one submission");
	else
		status = grade_class(argc, argv, p.next, &f, &shared);
	cli_shared_free(&shared);
	return status;
}
