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

#include "backend.h"
#include "devname.h"
#include "dispatch.h"
#include "report.h"
#include "runner.h"
#include "testcase.h"
#include "util.h"

#define EXIT_MISMATCH 1
#define EXIT_USAGE    2

static const char usage_text[] =
	"usage: clharness devices\n"
	"       clharness run [OPTION]... [CASE|DIR]...\n"
	"\n"
	"Runs OpenCL kernel cases on every OpenCL device and compares each output buffer\n"
	"with a CPU reference. With no CASE or DIR, runs the installed catalogue.\n"
	"\n"
	"Options of run:\n"
	"  -d, --device NAME   run on devices NAME selects: a short name from `clharness\n"
	"                      devices` (pocl-cpu), a platform (nvidia), a type (cpu, gpu)\n"
	"                      or all; repeat to add more (default: all)\n"
	"  -n, --size N        run at size N instead of each case's sizes; repeatable\n"
	"  -l, --local L       run with work-group size L instead of each case's; repeatable\n"
	"      --tap           print TAP, one test line per result, for Automake's driver\n"
	"      --json          print JSON Lines, one object per result\n"
	"      --junit FILE    also write a JUnit XML report to FILE\n"
	"      --timeout S     kill a run with no result after S seconds (default 60)\n"
	"      --repeat R      launch each run R times and report the mean kernel time;\n"
	"                      the output of the last launch is checked (default 1)\n"
	"      --timing        print where the wall time went: setup, kernel, reference,\n"
	"                      comparison\n"
	"      --color WHEN    colour the text report: auto, always or never\n"
	"  -h, --help          print this help\n"
	"  -V, --version       print the version\n"
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

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct path_list {
	char **paths;
	size_t count;
};

static void add_path(struct path_list *list, char *path)
{
	list->paths = xreallocarray(list->paths, list->count + 1, sizeof *list->paths);
	list->paths[list->count++] = path;
}

static bool is_case_file(const char *name)
{
	size_t len = strlen(name);
	return (len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
	       (len > 4 && strcmp(name + len - 4, ".yml") == 0);
}

/* Adds every case file under dir, sorted, so a run's order never depends on the file
 * system. Returns -1 if dir cannot be read. */
static int collect_dir(struct path_list *list, const char *dir)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return -1;
	struct path_list here = { 0 };
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		add_path(&here, xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
					  e->d_name));
	}
	closedir(d);
	qsort(here.paths, here.count, sizeof *here.paths, compare_strings);
	for (size_t i = 0; i < here.count; i++) {
		struct stat st;
		if (stat(here.paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			collect_dir(list, here.paths[i]);
			free(here.paths[i]);
		} else if (is_case_file(here.paths[i])) {
			add_path(list, here.paths[i]);
		} else {
			free(here.paths[i]);
		}
	}
	free(here.paths);
	return 0;
}

static void emit_result(void *ctx, struct result *r)
{
	report_result(ctx, r);
}

/* The targets a run visits: a dispatcher and an index into its targets. */
struct selection {
	struct dispatcher **dispatchers; /* one a backend */
	struct {
		struct dispatcher *d;
		size_t index;
	} * targets;
	size_t count;
};

/* Opens every backend and keeps the targets one of the patterns selects (all when none
 * is given). Returns -1 after printing why a backend could not list its devices. */
static int select_targets(char **patterns, size_t npatterns, struct test_case *const *cases,
			  size_t ncases, const struct run_options *opt, unsigned timeout_s,
			  struct selection *sel)
{
	*sel = (struct selection){ .dispatchers =
					   xcalloc(backend_count, sizeof *sel->dispatchers) };
	for (size_t b = 0; b < backend_count; b++) {
		char *cause = NULL;
		if (dispatch_open(backends[b], cases, ncases, opt, timeout_s, &sel->dispatchers[b],
				  &cause) < 0) {
			fprintf(stderr, "clharness: %s\n", cause);
			free(cause);
			return -1;
		}
		struct dispatcher *d = sel->dispatchers[b];
		for (size_t i = 0; i < dispatch_target_count(d); i++) {
			const struct target *t = dispatch_target(d, i);
			bool wanted = npatterns == 0;
			for (size_t p = 0; p < npatterns && !wanted; p++)
				wanted = devname_matches(patterns[p], t->name, t->type);
			if (!wanted)
				continue;
			sel->targets =
				xreallocarray(sel->targets, sel->count + 1, sizeof *sel->targets);
			sel->targets[sel->count].d = d;
			sel->targets[sel->count++].index = i;
		}
	}
	return 0;
}

static void selection_free(struct selection *sel)
{
	for (size_t b = 0; b < backend_count && sel->dispatchers; b++)
		dispatch_close(sel->dispatchers[b]);
	free(sel->dispatchers);
	free(sel->targets);
}

static const char *human_bytes(uint64_t bytes, char *buf, size_t size)
{
	const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
	return buf;
}

static int cmd_devices(int argc, char **argv)
{
	if (argc > 1)
		return usage_error("devices takes no arguments, found '%s'", argv[1]);
	struct selection sel;
	struct run_options opt = { .repeat = 1 };
	if (select_targets(NULL, 0, NULL, 0, &opt, 60, &sel) < 0) {
		selection_free(&sel);
		return EXIT_USAGE;
	}
	if (sel.count == 0) {
		printf("no OpenCL devices: install an OpenCL driver, e.g. the Debian package "
		       "pocl-opencl-icd for the CPU\n");
	}
	for (size_t i = 0; i < sel.count; i++) {
		const struct target *t = dispatch_target(sel.targets[i].d, sel.targets[i].index);
		char local[32], global[32], alloc[32];
		printf("%-16s %-5s %s\n", t->name, t->type, t->device);
		printf("%-16s       platform %s, %s, driver %s\n", "", t->platform, t->opencl,
		       t->driver);
		printf("%-16s       %u compute units, work-groups up to %llu, local memory %s, "
		       "global memory %s, buffers up to %s\n",
		       "", t->compute_units, (unsigned long long)t->max_work_group,
		       human_bytes(t->local_mem, local, sizeof local),
		       human_bytes(t->global_mem, global, sizeof global),
		       human_bytes(t->max_alloc, alloc, sizeof alloc));
	}
	selection_free(&sel);
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	enum { OPT_TAP = 256, OPT_JSON, OPT_JUNIT, OPT_TIMEOUT, OPT_REPEAT, OPT_TIMING, OPT_COLOR };
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char **patterns = NULL;
	size_t npatterns = 0;
	long long *sizes = NULL, *locals = NULL;
	size_t nsizes = 0, nlocals = 0;
	enum report_format format = REPORT_TEXT;
	long long timeout = 60, repeat = 1;
	bool timing = false;
	const char *colour = "auto";
	const char *junit_path = NULL;

	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "d:n:l:h", options, NULL)) != -1) {
		long long v;
		switch (c) {
		case 'd':
			patterns = xreallocarray(patterns, npatterns + 1, sizeof *patterns);
			patterns[npatterns++] = optarg;
			break;
		case 'n':
		case 'l':
			if (parse_positive(optarg, 1LL << 40, &v) < 0)
				return usage_error("--%s takes a positive whole number, found '%s'",
						   c == 'n' ? "size" : "local", optarg);
			if (c == 'n') {
				sizes = xreallocarray(sizes, nsizes + 1, sizeof *sizes);
				sizes[nsizes++] = v;
			} else {
				locals = xreallocarray(locals, nlocals + 1, sizeof *locals);
				locals[nlocals++] = v;
			}
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
			if (parse_positive(optarg, 86400, &timeout) < 0)
				return usage_error(
					"--timeout takes seconds from 1 to 86400, found '%s'",
					optarg);
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
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") &&
			    strcmp(optarg, "never"))
				return usage_error(
					"--color takes auto, always or never, found '%s'", optarg);
			colour = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'clharness --help'.\n");
			return EXIT_USAGE;
		}
	}

	struct path_list paths = { 0 };
	if (optind == argc) {
		const char *installed = CLH_PKGDATADIR "/cases";
		if (collect_dir(&paths, installed) < 0) {
			fprintf(stderr,
				"clharness: no case given, and no catalogue is installed at %s: "
				"name case files or folders, e.g. clharness run cases/\n",
				installed);
			return EXIT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0)
			return usage_error("cannot read '%s': no such file or folder", argv[i]);
		if (S_ISDIR(st.st_mode)) {
			if (collect_dir(&paths, argv[i]) < 0)
				return usage_error("cannot read folder '%s'", argv[i]);
		} else {
			add_path(&paths, xstrdup(argv[i]));
		}
	}

	bool want_colour = strcmp(colour, "always") == 0 ||
			   (strcmp(colour, "auto") == 0 && isatty(STDOUT_FILENO));
	struct reporter reporter;
	report_init(&reporter, format, stdout, want_colour);
	FILE *junit = NULL;
	if (junit_path) {
		junit = fopen(junit_path, "w");
		if (junit == NULL)
			return usage_error("cannot write the JUnit report '%s': %s", junit_path,
					   strerror(errno));
		report_set_junit(&reporter, junit);
	}
	uint64_t start = clock_now_ns();

	/* Load every case first: a broken one is reported and the others still run. */
	struct test_case **cases = xcalloc(paths.count, sizeof *cases);
	size_t ncases = 0;
	for (size_t i = 0; i < paths.count; i++) {
		struct diag_list diags = { 0 };
		struct test_case *tc = case_load(paths.paths[i], &diags);
		if (tc)
			cases[ncases++] = tc;
		else
			report_broken_case(&reporter, paths.paths[i], &diags);
		diag_list_free(&diags);
	}

	struct run_options opt = { sizes, nsizes, locals, nlocals, (unsigned)repeat };
	struct selection sel;
	int status = 0;
	if (select_targets(patterns, npatterns, cases, ncases, &opt, (unsigned)timeout, &sel) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	if (sel.count == 0) {
		char *reason =
			npatterns
				? xasprintf("no OpenCL device matches '%s' (see clharness devices)",
					    patterns[0])
				: xstrdup("no OpenCL device found: install a "
					  "driver, e.g. pocl-opencl-icd");
		report_skip_all(&reporter, reason);
		free(reason);
		/* Under TAP a missing device is a skip; elsewhere it is a setup error. */
		status = format == REPORT_TAP ? 0 : EXIT_USAGE;
		goto out;
	}

	for (size_t t = 0; t < sel.count; t++)
		dispatch_run(sel.targets[t].d, sel.targets[t].index, emit_result, &reporter);
	report_finish(&reporter, sel.count, clock_now_ns() - start, timing);
	/* Under TAP a failure is its "not ok" line; a non-zero exit would tell Automake's
	 * driver that the harness itself broke. */
	status = report_all_expected(&reporter) || format == REPORT_TAP ? 0 : EXIT_MISMATCH;

out:
	selection_free(&sel);
	if (junit)
		fclose(junit);
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	for (size_t i = 0; i < paths.count; i++)
		free(paths.paths[i]);
	free(paths.paths);
	free(patterns);
	free(sizes);
	free(locals);
	return status;
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
	return usage_error("unknown command '%s' (known: devices, run)", cmd);
}
