/* check.c - clharness check: one kernel checked without a case file. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "cli/commands.h"
#include "cli/shared.h"

enum { OPT_SAVE = CLI_OWN, OPT_EXPECT };

static const struct cli_option check_opts[] = {
	CLI_OPT_KERNEL_FORM,
	CLI_OPT_DEVICE("check on the devices NAME selects: " CLI_DEVICE_PATTERN_HELP
		       " (default: every device and oclgrind)"),
	{ OPT_SAVE, "save", "FILE", "also write the equivalent case file" },
	{ OPT_EXPECT, "expect", "NAME=VALUES",
	  "the values buffer NAME must hold after the launch: a data file (.npy, or .bin of "
	  "the buffer's type, found from the current folder) or a list, 'out=[1, 2, 3]'; every "
	  "other buffer is then given with --arg, and one input set runs; repeatable" },
	CLI_OPT_SUPPRESSIONS("findings meant to be there, as for run"),
	CLI_OPT_JSON("print JSON Lines, one object per result"),
	CLI_OPT_SARIF,
	CLI_OPT_HTML,
	CLI_OPT_TIMEOUT("kill a run with no result after S seconds (default 60)"),
	CLI_OPT_COLOR,
	{ 0 },
};

static int check_main(int argc, char **argv);

const struct cli_command cli_check = {
	.name = "check",
	.synopsis = "FILE.cl --kernel NAME --global G --local L [--arg SPEC]...",
	.summary = "check one kernel file without writing a case",
	.about = "Checks one kernel without a case file: it runs several input sets (random, "
		 "zeros, repeats, and scalars 0 and 1) on Oclgrind and every device, reports "
		 "each finding with the sets that exposed it, and compares the outputs of the "
		 "devices.",
	.options = check_opts,
	.main = check_main,
};

/* --expect NAME=VALUES, a file named by its absolute path so that the generated case,
 * and a saved one, find it wherever they stand. NULL after a usage error. */
static char *expect_option(const char *value)
{
	const char *eq = strchr(value, '=');
	if (eq == NULL || eq == value || eq[1] == '\0') {
		cli_usage_error("--expect takes NAME=FILE or NAME=[v, ...], found '%s'", value);
		return NULL;
	}
	if (eq[1] == '[')
		return xstrdup(value);
	char *real = realpath(eq + 1, NULL);
	if (real == NULL) {
		cli_usage_error("--expect %s: cannot read '%s': %s", value, eq + 1,
				strerror(errno));
		return NULL;
	}
	char *expect = xasprintf("%.*s=%s", (int)(eq - value), value, real);
	free(real);
	return expect;
}

static int check_main(int argc, char **argv)
{
	struct cli_shared shared = { .timeout_s = 60 };
	cli_take_cl_options(&cli_check, &argc, argv, &shared);
	struct cli_parser p;
	cli_parser_open(&p, &cli_check, argc, argv);
	int id;
	char *value;
	char **expects = NULL;
	size_t nexpects = 0;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0) {
		if (id == OPT_SAVE) {
			shared.kernel.save_path = value;
		} else if (id == OPT_EXPECT) {
			char *expect = expect_option(value);
			if (expect == NULL) {
				p.status = EXIT_USAGE;
				id = CLI_STOP;
				break;
			}
			expects = xreallocarray(expects, nexpects + 1, sizeof *expects);
			expects[nexpects++] = expect;
		}
	}
	cli_parser_close(&p);
	shared.kernel.expects = expects;
	shared.kernel.nexpects = nexpects;
	int status = p.status;
	if (id == CLI_STOP)
		goto out;
	status = EXIT_USAGE;
	if (p.next + 1 != argc) {
		cli_usage_error("check takes one kernel file, found %d", argc - p.next);
		goto out;
	}
	if (cli_kernel_form_complete(&shared, argv[p.next], "check") < 0)
		goto out;
	struct findlog *findings = cli_findlog_open(&shared, "check", &status);
	if ((shared.sarif_path || shared.html_dir) && findings == NULL)
		goto out;
	struct reporter reporter;
	report_init(&reporter, shared.json ? REPORT_JSON : REPORT_TEXT, stdout,
		    cli_colour_wanted(&shared));
	report_set_findlog(&reporter, findings);
	interrupt_install();
	status = adhoc_run(&shared.kernel, &reporter);
	if (interrupt_signal())
		status = cli_stopped_status();
	status = cli_findlog_close(findings, &shared, status);
out:
	for (size_t i = 0; i < nexpects; i++)
		free(expects[i]);
	free(expects);
	cli_shared_free(&shared);
	return status;
}
