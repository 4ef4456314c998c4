/* run.c - clharness run: cases on every target, judged by their goldens. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/shared.h"
#include "exec/caserun.h"
#include "exec/select.h"
#include "results/golden.h"
#include "results/runmerge.h"

enum { OPT_TAP = CLI_OWN, OPT_JUNIT_FILE, OPT_REPEAT, OPT_TIMING, OPT_BLESS };

static const struct cli_option run_opts[] = {
	CLI_OPT_DEVICE("run on the devices NAME selects: " CLI_DEVICE_PATTERN_HELP
		       " (default: every device and oclgrind)"),
	CLI_OPT_SIZES("run at size N (1024, or 1024x768 for a 2-D case) instead of each case's "
		      "sizes; repeatable"),
	CLI_OPT_LOCALS("run with work-group shape L (64, or 16x16) instead of each case's; "
		       "repeatable"),
	{ OPT_TAP, "tap", NULL, "print TAP, one test line per result, for Automake's driver" },
	CLI_OPT_JSON("print JSON Lines, one object per result"),
	CLI_OPT_JUNIT("also write a JUnit XML report to FILE"),
	CLI_OPT_SARIF,
	CLI_OPT_HTML,
	CLI_OPT_TIMEOUT("kill a run with no result after S seconds (default 60)"),
	CLI_OPT_JOBS("processes that share out the work, some cases on one target each time, "
		     "a CPU device's or the simulator's case by case as each becomes free "
		     "(default: one a core; 1 runs it all in turn); results are reported in "
		     "the order of one target after another all the same"),
	{ OPT_REPEAT, "repeat", "R",
	  "launch each run R times and report the mean kernel time; the output of the last "
	  "launch is checked (default 1)" },
	{ OPT_TIMING, "timing", NULL,
	  "print where the wall time went: setup, kernel, reference, comparison" },
	CLI_OPT_COLOR,
	CLI_OPT_SUPPRESSIONS("findings meant to be there (a YAML list of {kind, kernel, space, "
			     "lines, why}): listed as suppressed, failing nothing; one that "
			     "matches no finding is a warning"),
	CLI_OPT_SHARD("run shard K of N: every N-th case file from the K-th, in the order the "
		      "whole run takes them; under --json the output opens with a line naming "
		      "the shard and, once the run reached its end, ends with a closing line, "
		      "for `clharness merge`"),
	{ OPT_BLESS, "bless", NULL,
	  "write each case's golden, expected/TOPIC/NAME.expect, from this run (needs "
	  "oclgrind), for a person to review in the diff" },
	{ 0 },
};

static int run_main(int argc, char **argv);

const struct cli_command cli_run = {
	.name = "run",
	.synopsis = "[OPTION]... [CASE|DIR]...",
	.summary = "run cases on every device and under Oclgrind, judged by their goldens",
	.about = "Runs OpenCL kernel cases on every OpenCL device and under the Oclgrind "
		 "simulator, compares each output buffer with a CPU reference, reports the data "
		 "races, barrier divergence, out-of-bounds and uninitialised accesses Oclgrind "
		 "finds, and judges each result by the case's golden in expected/. With no CASE "
		 "or DIR, runs the installed catalogue.",
	.options = run_opts,
	.after = "Exit status: 0 when every result is what its case expects, 1 when any is not, "
		 "2 on usage or setup errors (a folder with no case file among them), 77 when "
		 "every result was a skip, so nothing was checked. Under --tap a failure is its "
		 "\"not ok\" line and the status is 0 unless the harness itself failed.",
	.main = run_main,
};

static void emit_reported(void *ctx, struct result *r)
{
	report_result(ctx, r);
}

/* --shard K/N: keeps every N-th case file of the run from the K-th; under --json the
 * output opens with a line naming the shard and its files, for `clharness merge`. */
static void keep_shard(struct walk *paths, const struct shard *shard, bool json)
{
	size_t kept = 0;
	for (size_t i = 0; i < paths->count; i++) {
		if (shard_holds(shard, i))
			paths->paths[kept++] = paths->paths[i];
		else
			free(paths->paths[i]);
	}
	paths->count = kept;
	if (json) {
		struct strbuf header = { 0 };
		run_shard_header(&header, shard, paths->paths, paths->count);
		fputs(header.data, stdout);
		strbuf_free(&header);
	}
}

/* What run's own options said. */
struct run_flags {
	enum report_format format;
	long long repeat;
	bool timing, bless;
};

/* Takes one of run's own options; -1 after a usage error. */
static int take_run_option(struct run_flags *f, int id, const char *value)
{
	switch (id) {
	case OPT_TAP:
		f->format = REPORT_TAP;
		return 0;
	case OPT_REPEAT:
		return cli_positive("repeat", value, 1000000, &f->repeat);
	case OPT_TIMING:
		f->timing = true;
		return 0;
	case OPT_BLESS:
		f->bless = true;
		return 0;
	}
	return 0;
}

static int run_main(int argc, char **argv)
{
	struct cli_shared shared = { .timeout_s = 60 };
	struct run_flags f = { .format = REPORT_TEXT, .repeat = 1 };
	struct cli_parser p;
	cli_parser_open(&p, &cli_run, argc, argv);
	int id, status = 0;
	char *value;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0)
		if (take_run_option(&f, id, value) < 0) {
			p.status = EXIT_USAGE;
			id = CLI_STOP;
			break;
		}
	cli_parser_close(&p);
	if (id == CLI_STOP) {
		cli_shared_free(&shared);
		return p.status;
	}
	if (shared.json && f.format == REPORT_TAP) {
		cli_shared_free(&shared);
		return cli_usage_error("--tap and --json are two formats of one output: give one");
	}
	enum report_format format = shared.json ? REPORT_JSON : f.format;
	bool bless = f.bless;
	long long repeat = f.repeat;

	struct walk paths = { 0 };
	struct reporter reporter;
	report_init(&reporter, format, stdout, cli_colour_wanted(&shared));
	FILE *junit = NULL;
	struct findlog *findings = NULL;
	struct test_case **cases = NULL;
	size_t ncases = 0;
	struct selection sel = { 0 };
	struct golden_book book = { 0 };
	struct case_run engine = { 0 };
	struct suppression_list *suppressions = &shared.suppressions;
	if (cli_collect_cases(argc, argv, p.next, &paths) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	if (shared.shard.count)
		keep_shard(&paths, &shared.shard, format == REPORT_JSON);
	if (shared.junit_path) {
		junit = fopen(shared.junit_path, "w");
		if (junit == NULL) {
			status = cli_usage_error("cannot write the JUnit report '%s': %s",
						 shared.junit_path, strerror(errno));
			goto out;
		}
		report_set_junit(&reporter, junit);
	}
	findings = cli_findlog_open(&shared, "run", &status);
	if (status != 0)
		goto out;
	report_set_findlog(&reporter, findings);
	uint64_t start = clock_now_ns();

	/* Load every case first: a broken one is reported and the others still run. */
	cases = cli_load_cases(&paths, &ncases, cli_case_broken, &reporter);
	cli_drop_misshapen(cases, &ncases, &shared, cli_case_broken, &reporter);

	struct run_options opt = { .sizes = shared.sizes,
				   .nsizes = shared.nsizes,
				   .locals = shared.locals,
				   .nlocals = shared.nlocals,
				   .repeat = (unsigned)repeat,
				   /* --repeat reports the mean kernel time */
				   .timed = repeat > 1,
				   .suppressions = suppressions };
	/* A golden holds the case's own shapes: other sizes have none to match. */
	bool own_shapes = shared.sizes == NULL && shared.locals == NULL;
	golden_book_open(&book, cases, ncases, bless, own_shapes, cli_case_broken, &reporter);
	selection_open(&sel, shared.patterns, shared.npatterns, cases, ncases, &opt,
		       shared.timeout_s);
	if (bless && (!selection_any_can(&sel, CAN_FIND) || !own_shapes)) {
		fprintf(stderr,
			"clharness: --bless writes goldens from a simulator's runs at each "
			"case's own sizes: it needs oclgrind among the devices and no "
			"--size or --local%s%s\n",
			sel.nmissing ? "; " : "", sel.nmissing ? sel.missing[0].reason : "");
		status = EXIT_USAGE;
		goto out;
	}
	selection_report_missing(&sel, &reporter, cases, ncases);
	if (sel.count == 0) {
		char *near = shared.npatterns ? selection_suggest(shared.patterns[0]) : NULL;
		char *reason =
			shared.npatterns
				? xasprintf("no OpenCL device matches '%s'%s (see clharness devices)",
					    shared.patterns[0], near)
				: xstrdup("no OpenCL device found: install a "
					  "driver, e.g. pocl-opencl-icd");
		free(near);
		/* Under TAP the skipped tests of a missing backend already stand for the run. */
		if (format != REPORT_TAP || sel.nmissing == 0 || ncases == 0)
			report_skip_all(&reporter, reason);
		else
			report_finish(&reporter, 0, clock_now_ns() - start, false);
		free(reason);
		/* Under TAP a missing device is a skip; elsewhere it is a setup error. */
		status = format == REPORT_TAP ? 0 : EXIT_USAGE;
		goto out;
	}

	case_run_open(&engine, cases, ncases, &book, suppressions, emit_reported, &reporter);
	interrupt_install();
	case_run_load_references(&engine, &opt, shared.timeout_s);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = shared.jobs ? shared.jobs : cores > 0 ? (unsigned)cores : 1;
	reporter.processes = jobs;
	case_run_targets(&engine, &sel, jobs);
	/* After a stop, the cases not run have no result to compare with their goldens. */
	if (!interrupt_signal())
		case_run_finish(&engine);
	report_finish(&reporter, sel.count, clock_now_ns() - start, f.timing);
	if (interrupt_signal()) {
		status = cli_stopped_status();
		goto out;
	}
	if (shared.shard.count && format == REPORT_JSON) {
		struct strbuf footer = { 0 };
		run_shard_footer(&footer, &shared.shard);
		fputs(footer.data, stdout);
		strbuf_free(&footer);
	}
	if (bless && golden_book_write(&book, stderr) > 0)
		status = EXIT_MISMATCH;
	/* Under TAP a failure is its "not ok" line; a non-zero exit would tell Automake's
	 * driver that the harness itself broke. */
	if (status == 0)
		status = report_all_expected(&reporter) || format == REPORT_TAP ? 0 : EXIT_MISMATCH;
	/* A run of skips checked nothing, and must not pass for a clean one; TAP's skip lines
	 * already say so to Automake's driver. */
	if (status == 0 && format != REPORT_TAP && report_all_skipped(&reporter))
		status = EXIT_SKIP;

out:
	case_run_close(&engine);
	selection_free(&sel);
	golden_book_close(&book);
	if (junit)
		fclose(junit);
	status = cli_findlog_close(findings, &shared, status);
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	walk_free(&paths);
	cli_shared_free(&shared);
	return status;
}
