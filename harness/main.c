/* main.c - the clharness command line: `devices` and `run`. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/shard.h"
#include "base/util.h"
#include "base/walk.h"
#include "bench/bench.h"
#include "case/testcase.h"
#include "check/adhoc.h"
#include "check/hunt.h"
#include "exec/backend.h"
#include "exec/runner.h"
#include "exec/select.h"
#include "grade/assignment.h"
#include "grade/batch.h"
#include "grade/grade.h"
#include "grade/gradeout.h"
#include "grade/gradereport.h"
#include "grade/submission.h"
#include "results/catalogue.h"
#include "results/crosscheck.h"
#include "results/golden.h"
#include "results/report.h"
#include "results/runmerge.h"

#define EXIT_MISMATCH 1
#define EXIT_USAGE    2

static const char usage_text[] =
	"usage: clharness devices\n"
	"       clharness run [OPTION]... [CASE|DIR]...\n"
	"       clharness check FILE.cl --kernel NAME --global G --local L [--arg SPEC]...\n"
	"       clharness catalogue [--results FILE]... [CASE|DIR]...\n"
	"       clharness grade [OPTION]... ASSIGNMENT SUBMISSION...\n"
	"       clharness bench [OPTION]... CASE|DIR...\n"
	"       clharness hunt [OPTION]... CASE|DIR...\n"
	"       clharness hunt [OPTION]... FILE.cl --kernel NAME --global G --local L\n"
	"                      [--arg SPEC]...\n"
	"       clharness merge [-o DIR] [--junit FILE] ASSIGNMENT SHARD-DIR...\n"
	"       clharness merge [-o FILE] RESULTS...\n"
	"\n"
	"Runs OpenCL kernel cases on every OpenCL device and under the Oclgrind simulator,\n"
	"compares each output buffer with a CPU reference, reports the data races, barrier\n"
	"divergence, out-of-bounds and uninitialised accesses Oclgrind finds, and judges each\n"
	"result by the case's golden in expected/. With no CASE or DIR, runs the installed\n"
	"catalogue.\n"
	"\n"
	"Options of run:\n"
	"  -d, --device NAME   run on devices NAME selects: a short name from `clharness\n"
	"                      devices` (pocl-cpu, oclgrind), a platform (nvidia), a type\n"
	"                      (cpu, gpu, simulator) or all; comma-separated or repeated\n"
	"                      (default: every device and oclgrind)\n"
	"  -n, --size N        run at size N (1024, or 1024x768 for a 2-D case) instead of\n"
	"                      each case's sizes; repeatable\n"
	"  -l, --local L       run with work-group shape L (64, or 16x16) instead of each\n"
	"                      case's; repeatable\n"
	"      --tap           print TAP, one test line per result, for Automake's driver\n"
	"      --json          print JSON Lines, one object per result\n"
	"      --junit FILE    also write a JUnit XML report to FILE\n"
	"      --timeout S     kill a run with no result after S seconds (default 60)\n"
	"      --repeat R      launch each run R times and report the mean kernel time;\n"
	"                      the output of the last launch is checked (default 1)\n"
	"      --timing        print where the wall time went: setup, kernel, reference,\n"
	"                      comparison\n"
	"      --color WHEN    colour the text report: auto, always or never\n"
	"      --suppressions FILE  findings meant to be there (a YAML list of {kind, kernel,\n"
	"                      space, lines, why}): listed as suppressed, failing nothing;\n"
	"                      one that matches no finding is a warning\n"
	"      --shard K/N     run shard K of N: every N-th case file from the K-th, in\n"
	"                      the order the whole run takes them; under --json the output\n"
	"                      opens with a line naming the shard, for `clharness merge`\n"
	"      --bless         write each case's golden, expected/TOPIC/NAME.expect, from this\n"
	"                      run (needs oclgrind), for a person to review in the diff\n"
	"  -h, --help          print this help\n"
	"  -V, --version       print the version\n"
	"\n"
	"Options of check (a kernel checked without a case; --device, --json, --timeout\n"
	"and --color as for run):\n"
	"      --kernel NAME   the kernel to launch\n"
	"      --global G      the global size; --local L the work-group size\n"
	"      --arg SPEC      one argument in the case-file syntax, e.g. '{buffer: float,\n"
	"                      count: N, init: {random: [0, 10]}}', '{local: float, count:\n"
	"                      L}', '{scalar: uint, value: 1000}'; bound by its name: or\n"
	"                      else in order; the rest come from the kernel's signature\n"
	"      --save FILE     also write the equivalent case file\n"
	"      --suppressions FILE  findings meant to be there, as for run\n"
	"The check runs several input sets (random, zeros, repeats, and scalars 0 and 1)\n"
	"on Oclgrind and every device, reports each finding with the sets that exposed it,\n"
	"and compares the outputs of the devices.\n"
	"\n"
	"Options of bench (times each case on every real device, beside the device's own\n"
	"copy bandwidth; every size's output is still checked):\n"
	"  -d, --device NAME   the devices to time on (default: every real device)\n"
	"  -n, --size N        time at size N instead of the sweep; repeatable\n"
	"  -l, --local L       time at work-group size L instead of each case's; repeatable\n"
	"      --max-size N    the sweep's largest size (default 2^28): powers of two from\n"
	"                      2^10 while the buffers fit the device's memory\n"
	"      --rounds R      timed rounds a size, after one warm-up (default 10)\n"
	"      --csv, --json   rows as CSV or JSON Lines instead of a table\n"
	"      --plot FILE     draw GB/s against size as SVG with gnuplot\n"
	"      --timeout S     a size's wall-clock limit (default 600)\n"
	"      --results FILE  write the bench page (Markdown, to standard output) from the\n"
	"                      rows of --csv runs instead; repeatable, a plot a target\n"
	"      --plots DIR     where the page's plots go (default .)\n"
	"\n"
	"Options of hunt (the races and other bugs one simulated run misses: each case, or\n"
	"the kernel as check takes it, runs under Oclgrind over input sets, work-group sizes\n"
	"from 1 to 1024, one to three groups and N that is no multiple of L, the program as\n"
	"written and optimised, the cheapest first; each finding is reported once with the\n"
	"trial that first showed it, then shrunk to the smallest launch that still\n"
	"shows it):\n"
	"      --budget S      seconds for the whole hunt, shared by its cases (default 60)\n"
	"  -j, --jobs N        simulator runs side by side (default: every core)\n"
	"      --timeout S     one trial's wall-clock limit (default 60)\n"
	"      --suppressions FILE  findings meant to be there, left out of the hunt and\n"
	"                      counted (as for run)\n"
	"      --save DIR      write each finding's smallest launch to DIR as a case that\n"
	"                      shows it in one Oclgrind run (the folder must exist)\n"
	"      --json          JSON Lines: an object a finding, with its first and smallest\n"
	"                      trials, then one with the sweep's counts, a target each\n"
	"      --color WHEN    colour the report: auto, always or never\n"
	"\n"
	"Options of catalogue (writes the catalogue page, Markdown, to standard output):\n"
	"  -r, --results FILE  results of `clharness run --json` to show; repeatable, so\n"
	"                      devices of several machines stand side by side\n"
	"\n"
	"Options of grade (a SUBMISSION is a student's .cl file, a student's folder with one\n"
	".cl file, or a folder of those; the class table goes to standard output):\n"
	"  -j, --jobs N        grade N submissions side by side (default 1)\n"
	"  -o, --out DIR       write each student's NAME.txt and NAME.json, and class.csv\n"
	"                      and class.md, to DIR (default grades)\n"
	"  -d, --device NAME   the device for the correct and speed checks (default: the\n"
	"                      first device `clharness devices` lists)\n"
	"      --timeout S     a run's wall-clock limit (default: after its build, 50 times\n"
	"                      the reference kernel's slowest run, at least 2 s, at most\n"
	"                      the assignment's wall limit)\n"
	"      --shard K/N     grade shard K of N: every N-th student from the K-th, in\n"
	"                      name order; writes their reports and shard-K-of-N.json, and\n"
	"                      `clharness merge` writes the class table from all shards\n"
	"      --resume        keep each student whose report an earlier grading into DIR\n"
	"                      finished, and grade only the rest\n"
	"      --gradescope DIR  also write Gradescope's DIR/results.json (one submission)\n"
	"      --junit FILE    also write a JUnit XML report: a test case a check, failed\n"
	"                      unless it earned all its points\n"
	"      --min-score P   exit 1 unless every student scored at least P points\n"
	"On a terminal a progress line shows students done, the one being graded, the time\n"
	"spent and an estimate of the time left.\n"
	"\n"
	"Options of merge (joins shards into what one grading or run gives):\n"
	"  -o, --out DIR|FILE  grading: where the reports and class.csv and class.md go\n"
	"                      (default: the first shard's folder); a run: the merged JSON\n"
	"                      Lines (default: standard output), which `clharness catalogue\n"
	"                      --results` makes the catalogue page of\n"
	"      --junit FILE    grading: also write a JUnit XML report of the class\n"
	"A shard that is missing, or a student of a shard with no report, is named.\n"
	"\n"
	"Exit status: 0 when every result is what its case expects, 1 when any is not,\n"
	"2 on usage or setup errors. Under --tap a failure is its \"not ok\" line and the\n"
	"status is 0 unless the harness itself failed.\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "clharness: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'clharness --help'.\n");
	return EXIT_USAGE;
}

/* --size or --local: a shape ("1024" or "1024x768") appended to the list; -1 after
 * saying what is wrong with it. */
static int shape_option(const char *option, const char *arg, struct shape **list, size_t *count)
{
	struct shape v;
	if (shape_parse(arg, &v) < 0) {
		usage_error("--%s takes a positive whole number, or one a dimension like 1024x768, "
			    "found '%s'",
			    option, arg);
		return -1;
	}
	*list = xreallocarray(*list, *count + 1, sizeof **list);
	(*list)[(*count)++] = v;
	return 0;
}

static int parse_positive(const char *text, long long max, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || end == text || *end != '\0' || v <= 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static bool is_case_file(const char *name)
{
	return has_suffix(name, ".yaml") || has_suffix(name, ".yml");
}

/* After a termination signal (interrupt.h): says so, and returns the exit status it
 * gives, 128 plus the signal's number. */
static int stopped_status(void)
{
	fprintf(stderr, "clharness: stopped by %s; the results above are all there are\n",
		strsignal(interrupt_signal()));
	return 128 + interrupt_signal();
}

static void print_diags(const struct diag_list *diags)
{
	struct strbuf out = { 0 };
	diag_list_render(&out, diags, false);
	if (out.data)
		fputs(out.data, stderr);
	strbuf_free(&out);
}

/* --suppressions FILE, added to `into`; -1 after printing its mistakes. */
static int load_suppressions(const char *path, struct suppression_list *into)
{
	struct diag_list diags = { 0 };
	int status = suppressions_load(path, into, &diags);
	print_diags(&diags);
	diag_list_free(&diags);
	return status;
}

/* What the run's results pass through on their way to the reporter. */
struct run_state {
	struct reporter *reporter;
	struct golden_book *book;
	struct crosscheck cross;
	struct test_case **cases;
	size_t ncases;
	struct test_case **refs; /* reference runs of the cases with a reference kernel */
	size_t nrefs;
	/* What each suppression matched: --suppressions' own, then each case's. */
	const struct suppression_list *suppressions;
	size_t *matched;
	size_t **case_matched;
	bool *case_simulated; /* a case ran on a simulator: its suppressions could match */
	bool simulated;
};

/* Counts what the suppressions matched in one result. */
static void count_suppressed(struct run_state *st, const struct result *r)
{
	for (size_t c = 0; c < st->ncases; c++) {
		if (strcmp(st->cases[c]->path, r->case_path) != 0)
			continue;
		st->case_simulated[c] |= r->simulated;
		st->simulated |= r->simulated;
		size_t global = st->suppressions ? st->suppressions->count : 0;
		for (size_t i = 0; i < r->findings.count; i++) {
			unsigned k = r->findings.items[i].suppressed;
			if (k == 0)
				continue;
			if (k <= global)
				st->matched[k - 1]++;
			else if (k - 1 - global < st->cases[c]->suppress.count)
				st->case_matched[c][k - 1 - global]++;
		}
		return;
	}
}

static void warn_unmatched(const struct suppression *s)
{
	char *what = suppression_text(s);
	fprintf(stderr, "%s:%d:%d: warning: this suppression matched no finding (%s)\n", s->file,
		s->pos.line, s->pos.col, what);
	free(what);
}

/* A suppression that matched nothing is stale or mistyped: said once the run is over,
 * for those that had a simulated run to match. */
static void report_unmatched(const struct run_state *st)
{
	for (size_t i = 0; st->suppressions && st->simulated && i < st->suppressions->count; i++)
		if (st->matched[i] == 0)
			warn_unmatched(&st->suppressions->items[i]);
	for (size_t c = 0; c < st->ncases; c++)
		for (size_t i = 0; st->case_simulated[c] && i < st->cases[c]->suppress.count; i++)
			if (st->case_matched[c][i] == 0)
				warn_unmatched(&st->cases[c]->suppress.items[i]);
}

/* The case files named from argv[first] on, folders searched; with none, the installed
 * catalogue. Entries that are skipped are warned about. Returns -1 after saying what is
 * wrong. */
static int collect_cases(int argc, char **argv, int first, struct walk *paths)
{
	struct diag_list warnings = { 0 };
	int status = 0;
	if (first == argc) {
		const char *installed = CLH_PKGDATADIR "/cases";
		if (walk_add(paths, installed, is_case_file, &warnings) < 0) {
			fprintf(stderr,
				"clharness: no case given, and no catalogue is installed at %s: "
				"name case files or folders, e.g. clharness run cases/\n",
				installed);
			status = -1;
		}
	}
	for (int i = first; i < argc && status == 0; i++) {
		if (walk_add(paths, argv[i], is_case_file, &warnings) < 0) {
			usage_error("cannot read '%s': %s", argv[i], strerror(errno));
			status = -1;
		}
	}
	print_diags(&warnings);
	diag_list_free(&warnings);
	return status;
}

static void emit_result(void *ctx, struct result *r)
{
	struct run_state *st = ctx;
	/* Outputs compared between targets first: a difference is a verdict for the golden. */
	for (size_t i = 0; i < st->ncases && r->nkept > 0; i++)
		if (strcmp(st->cases[i]->path, r->case_path) == 0)
			crosscheck_take(&st->cross, st->cases[i], r);
	count_suppressed(st, r);
	golden_book_take(st->book, r);
	report_result(st->reporter, r);
}

/* A reference kernel's run: its outputs kept for the case's runs; reported only when it
 * gave none, since then the case has nothing to be compared with. */
static void emit_reference(void *ctx, struct result *r)
{
	struct run_state *st = ctx;
	for (size_t i = 0; i < st->nrefs; i++)
		if (strcmp(st->refs[i]->path, r->case_path) == 0)
			crosscheck_take(&st->cross, st->refs[i], r);
	if (r->verdict != VERDICT_PASS)
		report_result(st->reporter, r);
}

/* Runs the reference kernels of the cases that have one on the first CPU device, before
 * any target runs the cases, so each run of a case meets its reference's outputs. */
static void run_references(struct run_state *st, const struct run_options *opt, unsigned timeout)
{
	struct diag_list diags = { 0 };
	for (size_t i = 0; i < st->ncases; i++) {
		struct test_case *ref = case_load_reference(st->cases[i], &diags);
		if (ref == NULL)
			continue;
		st->refs = xreallocarray(st->refs, st->nrefs + 1, sizeof *st->refs);
		st->refs[st->nrefs++] = ref;
	}
	diag_list_free(&diags); /* the case itself loaded: its reference loads the same */
	if (st->nrefs == 0)
		return;
	char *cpu[] = { "cpu" };
	struct selection sel;
	selection_open(&sel, cpu, 1, st->refs, st->nrefs, opt, timeout);
	if (sel.count > 0)
		selection_run(&sel, 0, emit_reference, st);
	selection_free(&sel);
}

static void emit_reported(void *ctx, struct result *r)
{
	report_result(ctx, r);
}

static void case_broken(void *ctx, const char *path, const struct diag_list *diags)
{
	report_broken_case(ctx, path, diags);
}

static void golden_broken(void *ctx, const char *path, const struct diag_list *diags)
{
	report_broken_case(ctx, path, diags);
}

/* Adds each comma-separated pattern of `arg` to the list. */
static void add_patterns(char ***patterns, size_t *npatterns, char *arg)
{
	for (char *save = NULL, *p = strtok_r(arg, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		*patterns = xreallocarray(*patterns, *npatterns + 1, sizeof **patterns);
		(*patterns)[(*npatterns)++] = p;
	}
}

/* Reads --timeout's seconds; -1 after saying what is wrong. */
static int timeout_option(const char *arg, unsigned *seconds)
{
	long long v;
	if (parse_positive(arg, 86400, &v) < 0) {
		usage_error("--timeout takes seconds from 1 to 86400, found '%s'", arg);
		return -1;
	}
	*seconds = (unsigned)v;
	return 0;
}

/* Reads --color's word; -1 after saying what is wrong. */
static int colour_option(const char *arg, const char **colour)
{
	if (strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never")) {
		usage_error("--color takes auto, always or never, found '%s'", arg);
		return -1;
	}
	*colour = arg;
	return 0;
}

/* Whether the text report is coloured: always, or auto on a terminal. */
static bool colour_wanted(const char *colour)
{
	return strcmp(colour, "always") == 0 ||
	       (strcmp(colour, "auto") == 0 && isatty(STDOUT_FILENO));
}

static int cmd_devices(int argc, char **argv)
{
	if (argc > 1)
		return usage_error("devices takes no arguments, found '%s'", argv[1]);
	struct selection sel;
	struct run_options opt = { .repeat = 1 };
	selection_open(&sel, NULL, 0, NULL, 0, &opt, 60);
	if (sel.count == 0) {
		printf("no OpenCL devices: install an OpenCL driver, e.g. the Debian package "
		       "pocl-opencl-icd for the CPU\n");
	}
	for (size_t i = 0; i < sel.count; i++) {
		const struct target *t = selection_target(&sel, i);
		char local[32], global[32], alloc[32];
		printf("%-16s %-9s %s\n", t->name, t->type, t->device);
		printf("%-16s           platform %s, %s, driver %s\n", "", t->platform, t->opencl,
		       t->driver);
		printf("%-16s           %u compute units, work-groups up to %llu, local memory %s, "
		       "global memory %s, buffers up to %s\n",
		       "", t->limits.compute_units, (unsigned long long)t->limits.max_work_group,
		       human_bytes(t->limits.local_mem, local, sizeof local),
		       human_bytes(t->limits.global_mem, global, sizeof global),
		       human_bytes(t->limits.max_alloc, alloc, sizeof alloc));
		char constant[32];
		printf("%-16s           work-items per dimension %llu x %llu x %llu, constant "
		       "buffers up to %s, double %s, half %s\n",
		       "", (unsigned long long)t->limits.max_work_item[0],
		       (unsigned long long)t->limits.max_work_item[1],
		       (unsigned long long)t->limits.max_work_item[2],
		       human_bytes(t->limits.max_constant, constant, sizeof constant),
		       t->limits.fp64 ? "yes" : "no", t->limits.fp16 ? "yes" : "no");
	}
	for (size_t m = 0; m < sel.nmissing; m++) {
		const struct backend *b = sel.missing[m].backend;
		printf("%-16s unavailable: %s\n", b->fixed_target ? b->fixed_target : b->name,
		       sel.missing[m].reason);
	}
	selection_free(&sel);
	return 0;
}

/* Writes each diagnostic to stderr as GCC would. */
/* Loads every case of `paths`; each that does not load goes to broken(), or with none to
 * stderr, so the others still count. Returns the loaded ones; caller frees. */
static struct test_case **
load_cases(const struct walk *paths, size_t *ncases,
	   void (*broken)(void *ctx, const char *path, const struct diag_list *diags), void *ctx)
{
	struct test_case **cases = xcalloc(paths->count ? paths->count : 1, sizeof *cases);
	*ncases = 0;
	for (size_t i = 0; i < paths->count; i++) {
		struct diag_list diags = { 0 };
		struct test_case *tc = case_load(paths->paths[i], &diags);
		if (tc)
			cases[(*ncases)++] = tc;
		else if (broken)
			broken(ctx, paths->paths[i], &diags);
		if (broken == NULL)
			print_diags(&diags);
		diag_list_free(&diags);
	}
	return cases;
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

/* clharness merge RESULTS...: the shards of `run --json --shard` as one run's lines. */
static int merge_runs(int argc, char **argv, int first, const char *out_path)
{
	struct diag_list diags = { 0 };
	struct strbuf merged = { 0 };
	int status = 0;
	if (run_merge(argv + first, (size_t)(argc - first), &merged, &diags) < 0) {
		status = EXIT_USAGE;
	} else if (out_path) {
		FILE *f = fopen(out_path, "w");
		if (f == NULL || fputs(merged.data ? merged.data : "", f) < 0 || fclose(f) != 0) {
			fprintf(stderr, "clharness: cannot write %s: %s\n", out_path,
				strerror(errno));
			status = EXIT_USAGE;
		}
	} else {
		fputs(merged.data ? merged.data : "", stdout);
	}
	print_diags(&diags);
	diag_list_free(&diags);
	strbuf_free(&merged);
	return status;
}

static int cmd_run(int argc, char **argv)
{
	enum {
		OPT_TAP = 256,
		OPT_JSON,
		OPT_JUNIT,
		OPT_TIMEOUT,
		OPT_REPEAT,
		OPT_TIMING,
		OPT_COLOR,
		OPT_BLESS,
		OPT_SUPPRESSIONS,
		OPT_SHARD
	};
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 'n' },
		{ "local", required_argument, NULL, 'l' },
		{ "tap", no_argument, NULL, OPT_TAP },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "timing", no_argument, NULL, OPT_TIMING },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "bless", no_argument, NULL, OPT_BLESS },
		{ "suppressions", required_argument, NULL, OPT_SUPPRESSIONS },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct shard shard = { 0 };
	char **patterns = NULL;
	size_t npatterns = 0;
	struct shape *sizes = NULL, *locals = NULL;
	size_t nsizes = 0, nlocals = 0;
	enum report_format format = REPORT_TEXT;
	long long repeat = 1;
	unsigned timeout = 60;
	bool timing = false, bless = false;
	const char *colour = "auto";
	const char *junit_path = NULL;
	const char *suppressions_path = NULL;

	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "d:n:l:h", options, NULL)) != -1) {
		switch (c) {
		case 'd':
			add_patterns(&patterns, &npatterns, optarg);
			break;
		case 'n':
			if (shape_option("size", optarg, &sizes, &nsizes) < 0)
				return EXIT_USAGE;
			break;
		case 'l':
			if (shape_option("local", optarg, &locals, &nlocals) < 0)
				return EXIT_USAGE;
			break;
		case OPT_TAP:
			format = REPORT_TAP;
			break;
		case OPT_JSON:
			format = REPORT_JSON;
			break;
		case OPT_JUNIT:
			junit_path = optarg;
			break;
		case OPT_TIMEOUT:
			if (timeout_option(optarg, &timeout) < 0)
				return EXIT_USAGE;
			break;
		case OPT_REPEAT:
			if (parse_positive(optarg, 1000000, &repeat) < 0)
				return usage_error(
					"--repeat takes a count from 1 to 1000000, found '%s'",
					optarg);
			break;
		case OPT_TIMING:
			timing = true;
			break;
		case OPT_BLESS:
			bless = true;
			break;
		case OPT_SUPPRESSIONS:
			suppressions_path = optarg;
			break;
		case OPT_SHARD:
			if (shard_parse(optarg, &shard) < 0)
				return usage_error("--shard takes K/N, shard K of N (1 <= K <= N), "
						   "found '%s'",
						   optarg);
			break;
		case OPT_COLOR:
			if (colour_option(optarg, &colour) < 0)
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			return EXIT_USAGE;
		}
	}

	struct walk paths = { 0 };
	struct reporter reporter;
	report_init(&reporter, format, stdout, colour_wanted(colour));
	FILE *junit = NULL;
	struct test_case **cases = NULL;
	size_t ncases = 0;
	struct selection sel = { 0 };
	struct golden_book book = { 0 };
	struct run_state state = { 0 };
	struct suppression_list suppressions = { 0 };
	int status = 0;
	if (suppressions_path && load_suppressions(suppressions_path, &suppressions) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	if (collect_cases(argc, argv, optind, &paths) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	if (shard.count)
		keep_shard(&paths, &shard, format == REPORT_JSON);
	if (junit_path) {
		junit = fopen(junit_path, "w");
		if (junit == NULL) {
			status = usage_error("cannot write the JUnit report '%s': %s", junit_path,
					     strerror(errno));
			goto out;
		}
		report_set_junit(&reporter, junit);
	}
	uint64_t start = clock_now_ns();

	/* Load every case first: a broken one is reported and the others still run. */
	cases = load_cases(&paths, &ncases, case_broken, &reporter);

	struct run_options opt = { .sizes = sizes,
				   .nsizes = nsizes,
				   .locals = locals,
				   .nlocals = nlocals,
				   .repeat = (unsigned)repeat,
				   .suppressions = &suppressions };
	/* A golden holds the case's own shapes: other sizes have none to match. */
	golden_book_open(&book, cases, ncases, bless, sizes == NULL && locals == NULL,
			 golden_broken, &reporter);
	selection_open(&sel, patterns, npatterns, cases, ncases, &opt, timeout);
	bool simulated = false;
	for (size_t t = 0; t < sel.count; t++)
		simulated |= strcmp(selection_target(&sel, t)->type, "simulator") == 0;
	if (bless && (!simulated || sizes || locals)) {
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
		char *reason =
			npatterns
				? xasprintf("no OpenCL device matches '%s' (see clharness devices)",
					    patterns[0])
				: xstrdup("no OpenCL device found: install a "
					  "driver, e.g. pocl-opencl-icd");
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

	state = (struct run_state){ .reporter = &reporter,
				    .book = &book,
				    .cases = cases,
				    .ncases = ncases,
				    .suppressions = &suppressions,
				    .matched =
					    xcalloc(suppressions.count + 1, sizeof *state.matched),
				    .case_matched = xcalloc(ncases + 1, sizeof *state.case_matched),
				    .case_simulated =
					    xcalloc(ncases + 1, sizeof *state.case_simulated) };
	for (size_t i = 0; i < ncases; i++)
		state.case_matched[i] =
			xcalloc(cases[i]->suppress.count + 1, sizeof **state.case_matched);
	interrupt_install();
	run_references(&state, &opt, timeout);
	for (size_t t = 0; t < sel.count && !interrupt_signal(); t++)
		selection_run(&sel, t, emit_result, &state);
	/* After a stop, the cases not run have no result to compare with their goldens. */
	if (!interrupt_signal()) {
		golden_book_unseen(&book, emit_reported, &reporter);
		report_unmatched(&state);
	}
	report_finish(&reporter, sel.count, clock_now_ns() - start, timing);
	if (interrupt_signal()) {
		status = stopped_status();
		goto out;
	}
	if (bless && golden_book_write(&book, stderr) > 0)
		status = EXIT_MISMATCH;
	/* Under TAP a failure is its "not ok" line; a non-zero exit would tell Automake's
	 * driver that the harness itself broke. */
	if (status == 0)
		status = report_all_expected(&reporter) || format == REPORT_TAP ? 0 : EXIT_MISMATCH;

out:
	for (size_t i = 0; state.case_matched && i < ncases; i++)
		free(state.case_matched[i]);
	free(state.case_matched);
	free(state.case_simulated);
	free(state.matched);
	suppression_list_free(&suppressions);
	crosscheck_free(&state.cross);
	for (size_t i = 0; i < state.nrefs; i++)
		case_free(state.refs[i]);
	free(state.refs);
	selection_free(&sel);
	golden_book_close(&book);
	if (junit)
		fclose(junit);
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	walk_free(&paths);
	free(patterns);
	free(sizes);
	free(locals);
	return status;
}

/* The options that name one kernel as check takes it, shared by check and hunt. */
enum { OPT_KERNEL = 256, OPT_GLOBAL, OPT_LOCAL, OPT_ARG, OPT_COMMAND_OWN };
#define KERNEL_FORM_OPTIONS                                                                        \
	{ "kernel", required_argument, NULL, OPT_KERNEL },                                         \
		{ "global", required_argument, NULL, OPT_GLOBAL },                                 \
		{ "local", required_argument, NULL, OPT_LOCAL },                                   \
	{                                                                                          \
		"arg", required_argument, NULL, OPT_ARG                                            \
	}

/* Takes option c if it is one of KERNEL_FORM_OPTIONS: 1 when taken, 0 when c is another,
 * -1 after a usage error. */
static int kernel_form_option(int c, char *arg, struct adhoc_request *rq)
{
	switch (c) {
	case OPT_KERNEL:
		rq->kernel = arg;
		return 1;
	case OPT_GLOBAL:
	case OPT_LOCAL:
		if (shape_parse(arg, c == OPT_GLOBAL ? &rq->global : &rq->local) < 0) {
			usage_error("--%s takes a positive whole number, or one a dimension like "
				    "64x64, found '%s'",
				    c == OPT_GLOBAL ? "global" : "local", arg);
			return -1;
		}
		return 1;
	case OPT_ARG:
		rq->specs = xreallocarray(rq->specs, rq->nspecs + 1, sizeof *rq->specs);
		rq->specs[rq->nspecs++] = arg;
		return 1;
	default:
		return 0;
	}
}

/* The kernel file and what the options said of it, checked as `command` needs them:
 * a readable file, --kernel, and --global and --local of as many dimensions, the one a
 * multiple of the other. Returns -1 after a usage error. */
static int kernel_form_complete(struct adhoc_request *rq, const char *path, const char *command)
{
	rq->kernel_path = path;
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return usage_error("cannot read the kernel file '%s'", path), -1;
	if (rq->kernel == NULL || rq->global.dims == 0 || rq->local.dims == 0) {
		usage_error("%s FILE.cl needs --kernel NAME, --global G and --local L", command);
		return -1;
	}
	char global[SHAPE_TEXT_MAX], local[SHAPE_TEXT_MAX];
	shape_format(&rq->global, global);
	shape_format(&rq->local, local);
	if (rq->global.dims != rq->local.dims) {
		usage_error("--global %s has %u dimension%s but --local %s has %u: give one "
			    "work-group size a dimension",
			    global, rq->global.dims, rq->global.dims == 1 ? "" : "s", local,
			    rq->local.dims);
		return -1;
	}
	for (unsigned d = 0; d < rq->global.dims; d++)
		if (rq->global.d[d] % rq->local.d[d] != 0) {
			usage_error("--global %s is not a multiple of --local %s in dimension %u: "
				    "OpenCL 1.2 launches whole work-groups",
				    global, local, d);
			return -1;
		}
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	enum { OPT_SAVE = OPT_COMMAND_OWN, OPT_JSON, OPT_TIMEOUT, OPT_SUPPRESSIONS, OPT_COLOR };
	static const struct option options[] = {
		KERNEL_FORM_OPTIONS,
		{ "device", required_argument, NULL, 'd' },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "suppressions", required_argument, NULL, OPT_SUPPRESSIONS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct adhoc_request rq = { .timeout_s = 60 };
	struct suppression_list suppressions = { 0 };
	enum report_format format = REPORT_TEXT;
	const char *colour = "auto";
	int status = EXIT_USAGE;

	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "d:h", options, NULL)) != -1) {
		int taken = kernel_form_option(c, optarg, &rq);
		if (taken < 0)
			goto out;
		if (taken)
			continue;
		switch (c) {
		case 'd':
			add_patterns(&rq.patterns, &rq.npatterns, optarg);
			break;
		case OPT_SAVE:
			rq.save_path = optarg;
			break;
		case OPT_SUPPRESSIONS:
			if (load_suppressions(optarg, &suppressions) < 0)
				goto out;
			rq.suppressions = &suppressions;
			break;
		case OPT_JSON:
			format = REPORT_JSON;
			break;
		case OPT_TIMEOUT:
			if (timeout_option(optarg, &rq.timeout_s) < 0)
				goto out;
			break;
		case OPT_COLOR:
			if (colour_option(optarg, &colour) < 0)
				goto out;
			break;
		case 'h':
			fputs(usage_text, stdout);
			status = 0;
			goto out;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			goto out;
		}
	}
	if (optind + 1 != argc) {
		usage_error("check takes one kernel file, found %d", argc - optind);
		goto out;
	}
	if (kernel_form_complete(&rq, argv[optind], "check") < 0)
		goto out;
	struct reporter reporter;
	report_init(&reporter, format, stdout, colour_wanted(colour));
	interrupt_install();
	status = adhoc_run(&rq, &reporter);
	if (interrupt_signal())
		status = stopped_status();
out:
	suppression_list_free(&suppressions);
	free(rq.specs);
	free(rq.patterns);
	return status;
}

/* clharness hunt: a sweep under the simulator for what one run misses. */
static int cmd_hunt(int argc, char **argv)
{
	enum {
		OPT_BUDGET = OPT_COMMAND_OWN,
		OPT_TIMEOUT,
		OPT_SAVE,
		OPT_SUPPRESSIONS,
		OPT_COLOR,
		OPT_JSON
	};
	static const struct option options[] = {
		KERNEL_FORM_OPTIONS,
		{ "json", no_argument, NULL, OPT_JSON },
		{ "suppressions", required_argument, NULL, OPT_SUPPRESSIONS },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "colour", required_argument, NULL, OPT_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct adhoc_request kernel = { .timeout_s = 60 };
	struct hunt_request rq = { .budget_s = 60, .timeout_s = 60 };
	struct suppression_list suppressions = { 0 };
	const char *colour = "auto";
	struct walk paths = { 0 };
	int status = EXIT_USAGE;
	enum report_format format = REPORT_TEXT;
	long long n;

	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "j:h", options, NULL)) != -1) {
		int taken = kernel_form_option(c, optarg, &kernel);
		if (taken < 0)
			goto out;
		if (taken)
			continue;
		switch (c) {
		case OPT_JSON:
			format = REPORT_JSON;
			break;
		case OPT_SAVE:
			rq.save_dir = optarg;
			break;
		case OPT_SUPPRESSIONS:
			if (load_suppressions(optarg, &suppressions) < 0)
				goto out;
			rq.suppressions = &suppressions;
			break;
		case OPT_BUDGET:
			if (parse_positive(optarg, 86400 * 7, &n) < 0) {
				usage_error("--budget takes whole seconds from 1, found '%s'",
					    optarg);
				goto out;
			}
			rq.budget_s = (double)n;
			break;
		case 'j':
			if (parse_positive(optarg, 1024, &n) < 0) {
				usage_error(
					"--jobs takes a whole number from 1 to 1024, found '%s'",
					optarg);
				goto out;
			}
			rq.jobs = (unsigned)n;
			break;
		case OPT_TIMEOUT:
			if (timeout_option(optarg, &rq.timeout_s) < 0)
				goto out;
			kernel.timeout_s = rq.timeout_s;
			break;
		case OPT_COLOR:
			if (colour_option(optarg, &colour) < 0)
				goto out;
			break;
		case 'h':
			fputs(usage_text, stdout);
			status = 0;
			goto out;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			goto out;
		}
	}
	if (optind == argc) {
		usage_error("hunt needs case files or folders, or a kernel file with --kernel");
		goto out;
	}
	size_t len = strlen(argv[optind]);
	bool kernel_form = len > 3 && strcmp(argv[optind] + len - 3, ".cl") == 0;
	if (kernel_form) {
		if (optind + 1 != argc) {
			usage_error("hunt takes one kernel file, found %d", argc - optind);
			goto out;
		}
		if (kernel_form_complete(&kernel, argv[optind], "hunt") < 0)
			goto out;
		rq.kernel = &kernel;
	} else {
		if (kernel.kernel || kernel.nspecs) {
			usage_error("--kernel and --arg belong to hunt FILE.cl, not to case files");
			goto out;
		}
		if (collect_cases(argc, argv, optind, &paths) < 0)
			goto out;
		rq.cases = paths.paths;
		rq.ncases = paths.count;
	}
	rq.progress = isatty(STDERR_FILENO);
	struct reporter reporter;
	report_init(&reporter, format, stdout, colour_wanted(colour));
	interrupt_install();
	status = hunt_run(&rq, &reporter);
	if (interrupt_signal())
		status = stopped_status();
out:
	suppression_list_free(&suppressions);
	walk_free(&paths);
	free(kernel.specs);
	return status;
}

/* clharness catalogue: the catalogue page from cases and recorded results. */
/* The copy kernel's case beside the first case's catalogue, or the installed one. */
static char *copy_case_path(struct test_case *const *cases, size_t ncases)
{
	const char *rel = "cases/bench/copy_float4.yaml";
	for (size_t i = 0; i < ncases; i++) {
		const char *at = strstr(cases[i]->path, "cases/");
		if (at == NULL)
			continue;
		char *path = xasprintf("%.*s%s", (int)(at - cases[i]->path), cases[i]->path, rel);
		if (access(path, R_OK) == 0)
			return path;
		free(path);
	}
	return xasprintf("%s/%s", CLH_PKGDATADIR, rel);
}

static int cmd_bench(int argc, char **argv)
{
	enum {
		OPT_MAX_SIZE = 256,
		OPT_ROUNDS,
		OPT_CSV,
		OPT_JSON,
		OPT_PLOT,
		OPT_TIMEOUT,
		OPT_RESULTS,
		OPT_PLOTS
	};
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 'n' },
		{ "local", required_argument, NULL, 'l' },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "rounds", required_argument, NULL, OPT_ROUNDS },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "results", required_argument, NULL, OPT_RESULTS },
		{ "plots", required_argument, NULL, OPT_PLOTS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char **results = NULL;
	size_t nresults = 0;
	const char *plots = ".";
	struct bench_request rq = {
		.max_size = 1LL << 28, .rounds = 10, .timeout_s = 600, .format = BENCH_TEXT
	};
	int status = EXIT_USAGE;
	struct walk paths = { 0 };
	struct test_case **cases = NULL;
	size_t ncases = 0;
	char *copy = NULL;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "d:n:l:h", options, NULL)) != -1) {
		long long number;
		switch (c) {
		case 'd':
			add_patterns(&rq.patterns, &rq.npatterns, optarg);
			break;
		case 'n':
			if (shape_option("size", optarg, &rq.sizes, &rq.nsizes) < 0)
				goto out;
			break;
		case 'l':
			if (shape_option("local", optarg, &rq.locals, &rq.nlocals) < 0)
				goto out;
			break;
		case OPT_MAX_SIZE:
			if (parse_positive(optarg, SHAPE_DIM_MAX, &rq.max_size) < 0) {
				usage_error("--max-size takes a positive whole number, found '%s'",
					    optarg);
				goto out;
			}
			break;
		case OPT_ROUNDS:
			if (parse_positive(optarg, 10000, &number) < 0) {
				usage_error(
					"--rounds takes a whole number from 1 to 10000, found '%s'",
					optarg);
				goto out;
			}
			rq.rounds = (unsigned)number;
			break;
		case OPT_CSV:
			rq.format = BENCH_CSV;
			break;
		case OPT_JSON:
			rq.format = BENCH_JSON;
			break;
		case OPT_PLOT:
			rq.plot_path = optarg;
			break;
		case OPT_TIMEOUT:
			if (timeout_option(optarg, &rq.timeout_s) < 0)
				goto out;
			break;
		case OPT_RESULTS:
			results = xreallocarray(results, nresults + 1, sizeof *results);
			results[nresults++] = optarg;
			break;
		case OPT_PLOTS:
			plots = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			status = 0;
			goto out;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			goto out;
		}
	}
	if (nresults > 0) {
		/* The page from stored results: nothing is measured. */
		if (optind != argc) {
			usage_error("bench --results writes the page from stored results and runs "
				    "no case, found '%s'",
				    argv[optind]);
			goto out;
		}
		status = bench_page(stdout, results, nresults, plots);
		goto out;
	}
	if (optind == argc) {
		usage_error("bench needs the cases to time, e.g. clharness bench cases/reduce/");
		goto out;
	}
	if (collect_cases(argc, argv, optind, &paths) < 0)
		goto out;
	struct reporter reporter;
	report_init(&reporter, REPORT_TEXT, stderr, false);
	cases = load_cases(&paths, &ncases, case_broken, &reporter);
	copy = copy_case_path(cases, ncases);
	rq.copy_case = copy;
	interrupt_install();
	status = bench_run(&rq, cases, ncases, stdout);
	if (interrupt_signal())
		status = stopped_status();
	else if (status == 0 && ncases < paths.count)
		status = EXIT_MISMATCH; /* a case file did not load */
out:
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	walk_free(&paths);
	free(copy);
	free(results);
	free(rq.patterns);
	free(rq.sizes);
	free(rq.locals);
	return status;
}

static int cmd_catalogue(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "results", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **files = NULL;
	size_t nfiles = 0;
	int c;
	while ((c = getopt_long(argc, argv, "r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			files = xreallocarray(files, nfiles + 1, sizeof *files);
			files[nfiles++] = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			free(files);
			return 0;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			free(files);
			return EXIT_USAGE;
		}
	}
	int status = 0;
	struct walk paths = { 0 };
	struct recorded_list *lists = xcalloc(nfiles ? nfiles : 1, sizeof *lists);
	struct catalogue_source *sources = xcalloc(nfiles ? nfiles : 1, sizeof *sources);
	struct test_case **cases = NULL;
	size_t ncases = 0;
	if (collect_cases(argc, argv, optind, &paths) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	for (size_t f = 0; f < nfiles; f++) {
		struct diag_list diags = { 0 };
		if (resultfile_read(files[f], &lists[f], &diags) < 0)
			status = EXIT_USAGE;
		else if (diags.count > 0)
			status = 1;
		print_diags(&diags);
		diag_list_free(&diags);
		sources[f] = (struct catalogue_source){ .label = files[f], .results = &lists[f] };
	}
	if (status == EXIT_USAGE)
		goto out;
	cases = load_cases(&paths, &ncases, NULL, NULL);
	if (ncases < paths.count)
		status = 1;
	char *page = catalogue_markdown(cases, ncases, sources, nfiles, NULL);
	fputs(page, stdout);
	free(page);
out:
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	for (size_t f = 0; f < nfiles; f++)
		recorded_list_free(&lists[f]);
	free(lists);
	free(sources);
	walk_free(&paths);
	free(files);
	return status;
}

/* The first device, and the simulator, grading runs on; exit status 2 after saying why
 * a target the assignment needs cannot run. */
static int grading_targets(const struct assignment *a, const char *device_pattern, char **device,
			   char **simulator)
{
	bool needs_simulator = false;
	for (size_t i = 0; i < a->nchecks; i++)
		needs_simulator |= a->checks[i].kind == GRADE_SIMULATE;
	struct run_options opt = { .repeat = 1 };
	char *patterns[] = { (char *)device_pattern, "oclgrind" };
	struct selection sel;
	selection_open(&sel, device_pattern ? patterns : NULL, device_pattern ? 2 : 0, NULL, 0,
		       &opt, 60);
	*device = *simulator = NULL;
	for (size_t t = 0; t < sel.count; t++) {
		const struct target *target = selection_target(&sel, t);
		bool sim = strcmp(target->type, "simulator") == 0;
		if (sim && *simulator == NULL)
			*simulator = xstrdup(target->name);
		else if (!sim && *device == NULL)
			*device = xstrdup(target->name);
	}
	struct strbuf why = { 0 };
	for (size_t m = 0; m < sel.nmissing; m++)
		strbuf_printf(&why, "; %s: %s", sel.missing[m].backend->name,
			      sel.missing[m].reason);
	int status = 0;
	if (*device == NULL) {
		fprintf(stderr, "clharness: no OpenCL device %s%s to grade on%s\n",
			device_pattern ? "matches " : "", device_pattern ? device_pattern : "",
			why.data ? why.data : " (see clharness devices)");
		status = EXIT_USAGE;
	} else if (needs_simulator && *simulator == NULL) {
		fprintf(stderr,
			"clharness: %s's simulate checks need Oclgrind, which cannot run "
			"here%s\n",
			a->name, why.data ? why.data : "");
		status = EXIT_USAGE;
	}
	strbuf_free(&why);
	selection_free(&sel);
	return status;
}

/* What grade says as it goes: a line a student on stderr, and on a terminal a progress
 * line under them, redrawn in place, that a pipe or a CI log never gets. */
struct grade_watch {
	const struct assignment *a;
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

/* --min-score: 1 (and says who) when a student's total is below it. */
static int below_min_score(const struct student_grade *grades, size_t n, double min_score)
{
	size_t below = 0;
	for (size_t i = 0; i < n; i++)
		if (grades[i].total < min_score) {
			fprintf(stderr,
				"clharness: %s scored %.2f, below the --min-score of %.2f\n",
				grades[i].student, grades[i].total, min_score);
			below++;
		}
	return below ? EXIT_MISMATCH : 0;
}

/* Makes folder `dir` for output, saying why not on failure. */
static int make_out_dir(const char *dir, const char *what)
{
	if (mkdir(dir, 0777) == 0 || errno == EEXIST)
		return 0;
	fprintf(stderr, "clharness: cannot make the %s folder %s: %s\n", what, dir,
		strerror(errno));
	return -1;
}

/* clharness grade: every submission against an assignment, reports and a class table. */
static int cmd_grade(int argc, char **argv)
{
	enum { OPT_TIMEOUT = 256, OPT_SHARD, OPT_RESUME, OPT_GRADESCOPE, OPT_JUNIT, OPT_MIN };
	static const struct option options[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "out", required_argument, NULL, 'o' },
		{ "device", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "gradescope", required_argument, NULL, OPT_GRADESCOPE },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "min-score", required_argument, NULL, OPT_MIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long jobs = 1;
	const char *out_dir = "grades";
	const char *device_pattern = NULL;
	unsigned wall_s = 0;
	struct shard shard = { 0 };
	bool resume = false;
	struct class_outputs outputs = { 0 };
	double min_score = -1;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "j:o:d:h", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (parse_positive(optarg, 256, &jobs) < 0)
				return usage_error("--jobs takes a whole number from 1 to 256, "
						   "found '%s'",
						   optarg);
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'd':
			device_pattern = optarg;
			break;
		case OPT_TIMEOUT:
			if (timeout_option(optarg, &wall_s) < 0)
				return EXIT_USAGE;
			break;
		case OPT_SHARD:
			if (shard_parse(optarg, &shard) < 0)
				return usage_error("--shard takes K/N, shard K of N (1 <= K <= N), "
						   "found '%s'",
						   optarg);
			break;
		case OPT_RESUME:
			resume = true;
			break;
		case OPT_GRADESCOPE:
			outputs.gradescope_dir = optarg;
			break;
		case OPT_JUNIT:
			outputs.junit_path = optarg;
			break;
		case OPT_MIN: {
			char *end;
			min_score = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(min_score >= 0))
				return usage_error("--min-score takes points, a number of 0 or "
						   "more, found '%s'",
						   optarg);
			break;
		}
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 2)
		return usage_error("grade needs an assignment and at least one submission");

	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load(argv[optind], &diags);
	struct submission *subs = NULL;
	size_t nsubs = 0, nall = 0;
	if (a)
		submissions_collect(argv + optind + 1, (size_t)(argc - optind - 1), &subs, &nall,
				    &diags);
	/* A shard keeps every N-th student of the whole class, in the class's order. */
	for (size_t i = 0; i < nall; i++) {
		if (!shard_holds(&shard, i)) {
			free(subs[i].student);
			free(subs[i].path);
			free(subs[i].problem);
			free(subs[i].folder);
			continue;
		}
		subs[nsubs++] = subs[i];
	}
	if (diag_error_count(&diags) > 0) {
		print_diags(&diags);
		diag_list_free(&diags);
		submissions_free(subs, nsubs);
		assignment_free(a);
		return EXIT_USAGE;
	}
	diag_list_free(&diags);
	int status = 0;
	char *device = NULL, *simulator = NULL;
	if (outputs.gradescope_dir && nsubs != 1) {
		status = usage_error("--gradescope grades one submission, as Gradescope hands in "
				     "one; found %zu",
				     nsubs);
		goto out;
	}
	if (make_out_dir(out_dir, "report") < 0 ||
	    (outputs.gradescope_dir && make_out_dir(outputs.gradescope_dir, "Gradescope") < 0)) {
		status = EXIT_USAGE;
		goto out;
	}
	if (shard.count && shard_manifest_write(out_dir, a, &shard, subs, nsubs) < 0) {
		fprintf(stderr, "clharness: cannot write the shard's manifest to %s: %s\n", out_dir,
			strerror(errno));
		status = EXIT_USAGE;
		goto out;
	}
	status = grading_targets(a, device_pattern, &device, &simulator);
	if (status != 0)
		goto out;

	uint64_t start = clock_now_ns();
	/* One lock for every grader of this user on this machine, so that two classes graded
	 * at once do not slow each other's timed runs either. */
	const char *tmp = getenv("TMPDIR");
	char *lock = xasprintf("%s/clharness-timing-%u.lock", tmp && *tmp ? tmp : "/tmp",
			       (unsigned)getuid());
	struct grade_options gopt = {
		.device = device, .simulator = simulator, .wall_s = wall_s, .speed_lock = lock
	};
	if (wall_s == 0) {
		char *note = NULL;
		grade_calibrate(a, &gopt, &note);
		fprintf(stderr, "grade: a run may take %u s on %s",
			gopt.device_run_s ? gopt.device_run_s : a->wall_s, device);
		if (simulator)
			fprintf(stderr, ", %u s on %s",
				gopt.simulator_run_s ? gopt.simulator_run_s : a->wall_s, simulator);
		fprintf(stderr,
			" after its build (%d times the reference kernel's slowest run, "
			"at least %d s)\n",
			GRADE_LIMIT_FACTOR, GRADE_LIMIT_FLOOR_S);
		if (note)
			fprintf(stderr, "clharness: warning: %s\n", note);
		free(note);
	}
	struct grade_watch watch = { .a = a, .live = progress_wanted(), .start_ns = start };
	struct batch_options bo = { .assignment = a,
				    .grade = &gopt,
				    .out_dir = out_dir,
				    .jobs = (unsigned)jobs,
				    .resume = resume,
				    .progress = grade_progress,
				    .tick = watch.live ? grade_tick : NULL,
				    .ctx = &watch };
	struct student_grade *grades = xcalloc(nsubs + 1, sizeof *grades);
	interrupt_install();
	size_t unwritten = batch_grade(&bo, subs, nsubs, grades);
	progress_clear(&watch);
	free(lock);
	grade_options_free(&gopt);
	/* After a stop, the table holds the students who were finished. */
	size_t graded = graded_only(grades, nsubs);
	grades_from_reports(out_dir, a, grades, graded);

	/* A shard's table is the merge's to write, from every shard's reports. */
	char *table = NULL;
	outputs.out_dir = out_dir;
	outputs.seconds = (clock_now_ns() - start) / 1e9;
	outputs.no_table = shard.count > 0;
	struct diag_list unwritable = { 0 };
	unwritten += class_outputs_write(&outputs, a, grades, graded, &table, &unwritable);
	print_diags(&unwritable);
	diag_list_free(&unwritable);
	fputs(table, stdout);
	free(table);
	fprintf(stderr,
		"grade: %zu submission%s of %s graded on %s%s%s in %.1f s; reports in "
		"%s/\n",
		graded, graded == 1 ? "" : "s", a->name, device, simulator ? " and " : "",
		simulator ? simulator : "", outputs.seconds, out_dir);
	if (shard.count)
		fprintf(stderr,
			"grade: shard %u of %u (%zu of the class's %zu students); "
			"`clharness merge` joins the shards\n",
			shard.index, shard.count, nsubs, nall);
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
	if (status == 0 && min_score >= 0)
		status = below_min_score(grades, graded, min_score);
	for (size_t i = 0; i < nsubs; i++)
		student_grade_free(&grades[i]);
	free(grades);
out:
	free(device);
	free(simulator);
	submissions_free(subs, nsubs);
	assignment_free(a);
	return status;
}

/* clharness merge ASSIGNMENT DIR...: the class table of a class graded in shards. */
static int merge_grades(int argc, char **argv, int first, const char *out_dir,
			struct class_outputs *outputs)
{
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load(argv[first], &diags);
	struct student_grade *grades = NULL;
	size_t n = 0;
	const char *out = out_dir ? out_dir : argv[first + 1];
	int status = 0;
	if (a == NULL || make_out_dir(out, "report") < 0 ||
	    grade_merge(a, argv + first + 1, (size_t)(argc - first - 1), out, &grades, &n, &diags) <
		    0) {
		print_diags(&diags);
		status = EXIT_USAGE;
		goto out;
	}
	char *table = NULL;
	outputs->out_dir = out;
	size_t unwritten = class_outputs_write(outputs, a, grades, n, &table, &diags);
	print_diags(&diags);
	fputs(table, stdout);
	free(table);
	fprintf(stderr, "merge: %zu students of %s; reports and class table in %s/\n", n, a->name,
		out);
	status = unwritten ? EXIT_MISMATCH : 0;
out:
	for (size_t i = 0; i < n; i++)
		student_grade_free(&grades[i]);
	free(grades);
	diag_list_free(&diags);
	assignment_free(a);
	return status;
}

/* clharness merge: joins the shards of a grading or of a run. */
static int cmd_merge(int argc, char **argv)
{
	enum { OPT_JUNIT = 256 };
	static const struct option options[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "junit", required_argument, NULL, OPT_JUNIT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	struct class_outputs outputs = { 0 };
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case OPT_JUNIT:
			outputs.junit_path = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (argc - optind < 1)
		return usage_error("merge needs an assignment and the shards' report folders, or "
				   "the shards' results of run --json --shard");
	if (is_case_file(argv[optind])) {
		if (argc - optind < 2)
			return usage_error("merge needs the shards' report folders after the "
					   "assignment");
		return merge_grades(argc, argv, optind, out, &outputs);
	}
	return merge_runs(argc, argv, optind, out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("clharness %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(cmd, "devices") == 0)
		return cmd_devices(argc - 1, argv + 1);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(cmd, "catalogue") == 0)
		return cmd_catalogue(argc - 1, argv + 1);
	if (strcmp(cmd, "grade") == 0)
		return cmd_grade(argc - 1, argv + 1);
	if (strcmp(cmd, "bench") == 0)
		return cmd_bench(argc - 1, argv + 1);
	if (strcmp(cmd, "hunt") == 0)
		return cmd_hunt(argc - 1, argv + 1);
	if (strcmp(cmd, "merge") == 0)
		return cmd_merge(argc - 1, argv + 1);
	return usage_error("unknown command '%s' (known: devices, run, check, catalogue, grade, "
			   "bench, hunt, merge)",
			   cmd);
}
