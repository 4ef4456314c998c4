/* main.c - clharness: picks the command its first argument names (cli/commands.h) and
 * hands it the rest of the command line. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/annotate.h"
#include "cli/commands.h"

/* In the order `clharness --help` lists them. */
static const struct cli_command *const commands[] = {
	&cli_devices,	&cli_run,   &cli_check, &cli_hunt,
	&cli_catalogue, &cli_grade, &cli_bench, &cli_merge, &cli_capture, &cli_mutate,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *out)
{
	cli_print_synopses(out, commands, NCOMMANDS);
	fputs("\nRuns OpenCL kernel cases on every OpenCL device and under the Oclgrind "
	      "simulator,\ncompares each output buffer with a CPU reference, and reports the "
	      "data races,\nbarrier divergence, out-of-bounds and uninitialised accesses "
	      "Oclgrind finds.\n\nCommands:\n",
	      out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-11s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n'clharness COMMAND --help' prints a command's options; `man clharness` tells "
	      "all.\n\nExit status: 0 when every result is what its case expects, 1 when any "
	      "is not,\n2 on usage or setup errors.\n",
	      out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	/* clharness help COMMAND is clharness COMMAND --help, as git has it. */
	if (strcmp(name, "help") == 0 && argc > 2) {
		static char help_option[] = "--help";
		name = argv[2];
		argv[2] = help_option;
	} else if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 ||
		   strcmp(name, "help") == 0) {
		print_help(stdout);
		return 0;
	}
	if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
		printf("clharness %s\n", PACKAGE_VERSION);
		return 0;
	}
	/* Under GitHub Actions each error and warning is also an annotation on its line; on
	 * stderr, so that JSON and TAP on stdout stay what they are. */
	annotate_from_environment(stderr);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(name, commands[i]->name) == 0) {
			argv[1] = (char *)commands[i]->name;
			return commands[i]->main(argc - 1, argv + 1);
		}
	fprintf(stderr, "clharness: unknown command '%s'; the commands are", name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(stderr, "%s %s", i ? "," : "", commands[i]->name);
	fputs("\nTry 'clharness --help'.\n", stderr);
	return EXIT_USAGE;
}
