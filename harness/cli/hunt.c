/* hunt.c - clharness hunt: a sweep under the simulator for what one run misses. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "check/hunt.h"
#include "cli/commands.h"
#include "cli/shared.h"

enum { OPT_BUDGET = CLI_OWN, OPT_SAVE_DIR, OPT_FIXED_LOCAL, OPT_ANY_LOCAL };

static const struct cli_option hunt_opts[] = {
	CLI_OPT_KERNEL_FORM,
	CLI_OPT_DEVICE("the target the trials run on: oclgrind, or an instrumented device "
		       "NAME+racecheck (default: the first racecheck target where kernels can be "
		       "rewritten, each finding then confirmed under Oclgrind at its smallest "
		       "launch; else oclgrind)"),
	{ OPT_BUDGET, "budget", "S",
	  "seconds for the whole hunt, shared by its cases (default 60)" },
	{ OPT_FIXED_LOCAL, "fixed-local", NULL,
	  "the kernel needs its --local work-group shape: the sweep tries no other (it keeps it "
	  "by itself where the kernel requires one, reqd_work_group_size, or a local array is "
	  "sized for it)" },
	{ OPT_ANY_LOCAL, "any-local", NULL,
	  "the kernel is meant for every work-group shape: a finding only at shapes the launch "
	  "as given does not use is an error, not a warning that names the shape" },
	CLI_OPT_JOBS("simulator runs side by side (default: every core)"),
	CLI_OPT_TIMEOUT("one trial's wall-clock limit (default 60)"),
	CLI_OPT_SUPPRESSIONS("findings meant to be there, left out of the hunt and counted (as "
			     "for run)"),
	{ OPT_SAVE_DIR, "save", "DIR",
	  "write each finding's smallest launch to DIR as a case that shows it in one Oclgrind "
	  "run (DIR is made, before the hunt, where it does not exist)" },
	CLI_OPT_JSON("JSON Lines: an object a finding, with its first and smallest trials, then "
		     "one with the sweep's counts, a target each"),
	CLI_OPT_SARIF,
	CLI_OPT_HTML,
	CLI_OPT_COLOR,
	{ 0 },
};

static int hunt_main(int argc, char **argv);

const struct cli_command cli_hunt = {
	.name = "hunt",
	.synopsis = "[OPTION]... CASE|DIR...\n"
		    "[OPTION]... FILE.cl --kernel NAME --global G --local L [--arg SPEC]...",
	.summary = "sweep shapes, inputs and builds for the races one run misses",
	.about = "Hunts the races and other bugs one simulated run misses: each case, or the "
		 "kernel as check takes it, runs over input sets, work-group sizes from 1 to "
		 "1024, one to three groups and N that is no multiple of L, the cheapest first, "
		 "on an instrumented device (NAME+racecheck) where there is one, else under "
		 "Oclgrind, which also tries the optimised program; each finding is reported "
		 "once with the trial that first showed it, then shrunk to the smallest launch "
		 "that still shows it and, found on a device, confirmed under Oclgrind there.",
	.options = hunt_opts,
	.main = hunt_main,
};

static int hunt_main(int argc, char **argv)
{
	struct cli_shared shared = { .timeout_s = 60 };
	struct hunt_request rq = { .budget_s = 60 };
	struct walk paths = { 0 };
	cli_take_cl_options(&cli_hunt, &argc, argv, &shared);
	struct cli_parser p;
	cli_parser_open(&p, &cli_hunt, argc, argv);
	int id;
	char *value;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0) {
		unsigned seconds;
		if (id == OPT_FIXED_LOCAL) {
			rq.fixed_local = true;
		} else if (id == OPT_ANY_LOCAL) {
			rq.any_local = true;
		} else if (id == OPT_SAVE_DIR) {
			rq.save_dir = value;
		} else if (id == OPT_BUDGET) {
			if (cli_seconds("budget", value, &seconds) < 0) {
				p.status = EXIT_USAGE;
				id = CLI_STOP;
				break;
			}
			rq.budget_s = seconds;
		}
	}
	cli_parser_close(&p);
	int status = p.status;
	if (id == CLI_STOP)
		goto out;
	status = EXIT_USAGE;
	rq.jobs = shared.jobs;
	rq.patterns = shared.patterns;
	rq.npatterns = shared.npatterns;
	rq.timeout_s = shared.timeout_s;
	rq.suppressions = shared.have_suppressions ? &shared.suppressions : NULL;
	if (p.next == argc) {
		cli_usage_error("hunt needs case files or folders, or a kernel file with --kernel");
		goto out;
	}
	if (strlen(argv[p.next]) > 3 && has_suffix(argv[p.next], ".cl")) {
		if (p.next + 1 != argc) {
			cli_usage_error("hunt takes one kernel file, found %d", argc - p.next);
			goto out;
		}
		if (cli_kernel_form_complete(&shared, argv[p.next], "hunt") < 0)
			goto out;
		rq.kernel = &shared.kernel;
	} else {
		if (shared.kernel.kernel || shared.kernel.nspecs || shared.options.len) {
			cli_usage_error("--kernel, --arg and build options belong to hunt FILE.cl; "
					"a case file gives its own (options:)");
			goto out;
		}
		if (cli_collect_cases(argc, argv, p.next, &paths) < 0)
			goto out;
		rq.cases = paths.paths;
		rq.ncases = paths.count;
	}
	if (rq.fixed_local && rq.any_local) {
		cli_usage_error("--fixed-local keeps the one work-group shape that --any-local "
				"would judge others beside: give one of them");
		goto out;
	}
	/* Made or refused now, not after the budget is spent finding what it would hold. */
	if (rq.save_dir && !make_dirs(rq.save_dir)) {
		fprintf(stderr, "clharness: cannot make --save folder %s: %s\n", rq.save_dir,
			strerror(errno));
		goto out;
	}
	rq.progress = isatty(STDERR_FILENO);
	struct findlog *findings = cli_findlog_open(&shared, "hunt", &status);
	if ((shared.sarif_path || shared.html_dir) && findings == NULL)
		goto out;
	struct reporter reporter;
	report_init(&reporter, shared.json ? REPORT_JSON : REPORT_TEXT, stdout,
		    cli_colour_wanted(&shared));
	report_set_findlog(&reporter, findings);
	interrupt_install();
	status = hunt_run(&rq, &reporter);
	if (interrupt_signal())
		status = cli_stopped_status();
	status = cli_findlog_close(findings, &shared, status);
out:
	walk_free(&paths);
	cli_shared_free(&shared);
	return status;
}
