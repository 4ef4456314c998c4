/* check.c - clharness check: one kernel checked without a case file. */
#include "config.h"

#include "base/interrupt.h"
#include "cli/commands.h"
#include "cli/shared.h"

enum { OPT_SAVE = CLI_OWN };

static const struct cli_option check_opts[] = {
	CLI_OPT_KERNEL_FORM,
	CLI_OPT_DEVICE("check on the devices NAME selects: " CLI_DEVICE_PATTERN_HELP
		       " (default: every device and oclgrind)"),
	{ OPT_SAVE, "save", "FILE", "also write the equivalent case file" },
	CLI_OPT_SUPPRESSIONS("findings meant to be there, as for run"),
	CLI_OPT_JSON("print JSON Lines, one object per result"),
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

static int check_main(int argc, char **argv)
{
	struct cli_shared shared = { .timeout_s = 60 };
	cli_take_cl_options(&argc, argv, &shared);
	struct cli_parser p;
	cli_parser_open(&p, &cli_check, argc, argv);
	int id;
	char *value;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0)
		if (id == OPT_SAVE)
			shared.kernel.save_path = value;
	cli_parser_close(&p);
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
	struct reporter reporter;
	report_init(&reporter, shared.json ? REPORT_JSON : REPORT_TEXT, stdout,
		    cli_colour_wanted(&shared));
	interrupt_install();
	status = adhoc_run(&shared.kernel, &reporter);
	if (interrupt_signal())
		status = cli_stopped_status();
out:
	cli_shared_free(&shared);
	return status;
}
