/* bench.c - clharness bench: each case timed on every real device over a sweep of sizes. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "bench/bench.h"
#include "cli/commands.h"
#include "cli/shared.h"
#include "results/html.h"

enum { OPT_MAX_SIZE = CLI_OWN, OPT_ROUNDS, OPT_CSV, OPT_PLOT, OPT_RESULTS, OPT_PLOTS };

static const struct cli_option bench_opts[] = {
	CLI_OPT_DEVICE("the devices to time on: " CLI_DEVICE_PATTERN_HELP
		       " (default: every real device)"),
	CLI_OPT_SIZES("time at size N instead of the sweep; repeatable"),
	CLI_OPT_LOCALS("time at work-group size L instead of each case's; repeatable"),
	{ OPT_MAX_SIZE, "max-size", "N",
	  "the sweep's largest size (default 2^28): powers of two from 2^10 while the buffers "
	  "fit the device's memory" },
	{ OPT_ROUNDS, "rounds", "R", "timed rounds a size, after one warm-up (default 10)" },
	{ OPT_CSV, "csv", NULL, "rows as CSV instead of a table" },
	CLI_OPT_JSON("rows as JSON Lines instead of a table"),
	{ OPT_PLOT, "plot", "FILE", "draw GB/s against size as SVG with gnuplot" },
	{ CLI_HTML, "html", "DIR",
	  "also write the rows and the plot as one self-contained page, DIR/index.html" },
	CLI_OPT_TIMEOUT("a size's wall-clock limit (default 600)"),
	{ OPT_RESULTS, "results", "FILE",
	  "write the bench page (Markdown, to standard output) from the rows of --csv runs "
	  "instead; repeatable, a plot a target" },
	{ OPT_PLOTS, "plots", "DIR", "where the page's plots go (default .)" },
	{ 0 },
};

static int bench_main(int argc, char **argv);

const struct cli_command cli_bench = {
	.name = "bench",
	.synopsis = "[OPTION]... CASE|DIR...\n--results FILE.csv... [--plots DIR]",
	.summary = "time cases on every real device beside its copy bandwidth",
	.about = "Times each case on every real device over a sweep of sizes and its work-group "
		 "sizes, beside the device's own copy bandwidth; every size's output is still "
		 "checked.",
	.options = bench_opts,
	.main = bench_main,
};

/* What bench's own options said. */
struct bench_flags {
	struct bench_request *rq;
	char **results;
	size_t nresults;
	const char *plots;
};

/* Takes one of bench's own options; -1 after a usage error. */
static int take_bench_option(struct bench_flags *f, int id, char *value)
{
	long long n;
	switch (id) {
	case OPT_MAX_SIZE:
		return cli_positive("max-size", value, SHAPE_DIM_MAX, &f->rq->max_size);
	case OPT_ROUNDS:
		if (cli_positive("rounds", value, 10000, &n) < 0)
			return -1;
		f->rq->rounds = (unsigned)n;
		return 0;
	case OPT_CSV:
		f->rq->format = BENCH_CSV;
		return 0;
	case OPT_PLOT:
		f->rq->plot_path = value;
		return 0;
	case OPT_RESULTS:
		f->results = xreallocarray(f->results, f->nresults + 1, sizeof *f->results);
		f->results[f->nresults++] = value;
		return 0;
	case OPT_PLOTS:
		f->plots = value;
		return 0;
	}
	return 0;
}

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

static int bench_main(int argc, char **argv)
{
	struct cli_shared shared = { .timeout_s = 600 };
	struct bench_request rq = { .max_size = 1LL << 28, .rounds = 10, .format = BENCH_TEXT };
	struct bench_flags f = { .rq = &rq, .plots = "." };
	struct walk paths = { 0 };
	struct test_case **cases = NULL;
	size_t ncases = 0;
	char *copy = NULL;
	struct cli_parser p;
	cli_parser_open(&p, &cli_bench, argc, argv);
	int id;
	char *value;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0)
		if (take_bench_option(&f, id, value) < 0) {
			p.status = EXIT_USAGE;
			id = CLI_STOP;
			break;
		}
	cli_parser_close(&p);
	int status = p.status;
	if (id == CLI_STOP)
		goto out;
	status = EXIT_USAGE;
	if (shared.json)
		rq.format = BENCH_JSON;
	rq.patterns = shared.patterns;
	rq.npatterns = shared.npatterns;
	rq.sizes = shared.sizes;
	rq.nsizes = shared.nsizes;
	rq.locals = shared.locals;
	rq.nlocals = shared.nlocals;
	rq.timeout_s = shared.timeout_s;
	rq.html_dir = shared.html_dir;
	if (f.nresults > 0 && rq.html_dir) {
		cli_usage_error("bench --html is the page of a measuring run; --results writes "
				"its page as Markdown");
		goto out;
	}
	if (rq.html_dir && html_prepare(rq.html_dir) < 0) {
		cli_usage_error("cannot write the HTML report in '%s': %s", rq.html_dir,
				strerror(errno));
		goto out;
	}
	if (f.nresults > 0) {
		/* The page from stored results: nothing is measured. */
		if (p.next != argc) {
			cli_usage_error("bench --results writes the page from stored results and "
					"runs no case, found '%s'",
					argv[p.next]);
			goto out;
		}
		status = bench_page(stdout, f.results, f.nresults, f.plots);
		goto out;
	}
	if (p.next == argc) {
		cli_usage_error(
			"bench needs the cases to time, e.g. clharness bench cases/reduce/");
		goto out;
	}
	if (cli_collect_cases(argc, argv, p.next, &paths) < 0)
		goto out;
	struct reporter reporter;
	report_init(&reporter, REPORT_TEXT, stderr, false);
	cases = cli_load_cases(&paths, &ncases, cli_case_broken, &reporter);
	cli_drop_misshapen(cases, &ncases, &shared, cli_case_broken, &reporter);
	copy = copy_case_path(cases, ncases);
	rq.copy_case = copy;
	interrupt_install();
	status = bench_run(&rq, cases, ncases, stdout);
	if (interrupt_signal())
		status = cli_stopped_status();
	else if (status == 0 && ncases < paths.count)
		status = EXIT_MISMATCH; /* a case file did not load */
out:
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	walk_free(&paths);
	free(copy);
	free(f.results);
	cli_shared_free(&shared);
	return status;
}
