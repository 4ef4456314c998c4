/* check_cli.c - the command line's option layer: a command's options parsed and its
 * --help written from one description, the shared options read once, and every
 * command's description whole. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "check_suites.h"
#include "cli/commands.h"
#include "cli/shared.h"

enum { OPT_FLAG = CLI_OWN, OPT_VALUE };

static const struct cli_option sample_opts[] = {
	CLI_OPT_DEVICE("where"),
	CLI_OPT_SIZES("sizes"),
	CLI_OPT_TIMEOUT("a limit"),
	CLI_OPT_COLOR,
	{ OPT_FLAG, "flag", NULL, "a flag of the command's own" },
	{ OPT_VALUE, "value", "V", "a value of the command's own" },
	{ 0 },
};

static const struct cli_command sample = {
	.name = "sample",
	.synopsis = "[OPTION]... FILE...",
	.about = "A command for the tests.",
	.options = sample_opts,
};

/* Parses argv (ending in NULL) as `sample`: the own options' ids in `ids`, the shared
 * ones in *shared; returns CLI_END or CLI_STOP, with the parser's state in *p. */
static int parse(char **argv, struct cli_shared *shared, struct cli_parser *p, int *ids,
		 char **values)
{
	int argc = 0;
	/* Writable, as a real argv is: --device splits its value in place. */
	while (argv[argc]) {
		argv[argc] = xstrdup(argv[argc]);
		argc++;
	}
	cli_parser_open(p, &sample, argc, argv);
	int id, n = 0;
	char *value;
	while ((id = cli_next_own(p, shared, &value)) >= 0) {
		ids[n] = id;
		values[n++] = value;
	}
	ids[n] = 0;
	cli_parser_close(p);
	return id;
}

static void free_argv(char **argv)
{
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
}

START_TEST(test_long_short_and_shared_options)
{
	char *argv[] = { "sample", "-d",    "pocl,oclgrind", "--flag", "--value=7",
			 "--size", "64x32", "--timeout",     "5",      "--colour",
			 "never",  "a.cl",  "b.cl",	     NULL };
	struct cli_shared shared = { .timeout_s = 60 };
	struct cli_parser p;
	int ids[8];
	char *values[8];
	ck_assert_msg(parse(argv, &shared, &p, ids, values) == CLI_END,
		      "A well-formed command line parses to its end.");
	ck_assert_msg(ids[0] == OPT_FLAG && ids[1] == OPT_VALUE && ids[2] == 0,
		      "Only the command's own options come back to it, in order.");
	ck_assert_msg(values[0] == NULL && strcmp(values[1], "7") == 0,
		      "A flag has no value; --value=7 has 7.");
	ck_assert_msg(shared.npatterns == 2 && strcmp(shared.patterns[1], "oclgrind") == 0,
		      "--device is split at commas.");
	ck_assert_msg(shared.nsizes == 1 && shared.sizes[0].dims == 2 && shared.sizes[0].d[1] == 32,
		      "--size takes a shape.");
	ck_assert_msg(shared.timeout_s == 5, "--timeout sets seconds, not %u.", shared.timeout_s);
	ck_assert_msg(strcmp(shared.colour, "never") == 0, "--colour is --color's alias.");
	ck_assert_msg(p.next == 11 && strcmp(argv[p.next], "a.cl") == 0,
		      "The operands start after the options, at %d.", p.next);
	cli_shared_free(&shared);
	free_argv(argv);
}
END_TEST

START_TEST(test_mistakes_stop_with_usage_status)
{
	char *unknown[] = { "sample", "--bogus", NULL };
	char *missing[] = { "sample", "a.cl", "--timeout", NULL };
	char *bad_shape[] = { "sample", "--size", "32xx16", NULL };
	char *bad_seconds[] = { "sample", "--timeout", "-3", NULL };
	char *bad_colour[] = { "sample", "--color", "sometimes", NULL };
	char **lines[] = { unknown, missing, bad_shape, bad_seconds, bad_colour };
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct cli_shared shared = { 0 };
		struct cli_parser p;
		int ids[4];
		char *values[4];
		ck_assert_msg(parse(lines[i], &shared, &p, ids, values) == CLI_STOP &&
				      p.status == EXIT_USAGE,
			      "'%s %s' stops with exit status 2, not %d.", lines[i][1],
			      lines[i][2] ? lines[i][2] : "", p.status);
		cli_shared_free(&shared);
		free_argv(lines[i]);
	}
}
END_TEST

START_TEST(test_parsing_twice_starts_afresh)
{
	/* A first command line left mid-way (a bundle of short options) must not leak into
	 * the next, as getopt's hidden state would. */
	char *first[] = { "sample", "-dn", "64", NULL };
	char *second[] = { "sample", "--flag", "x", NULL };
	struct cli_shared shared = { 0 };
	struct cli_parser p;
	cli_parser_open(&p, &sample, 3, first);
	char *value;
	ck_assert_msg(cli_next(&p, &value) == 'd' && strcmp(value, "n") == 0, "-dn is --device n.");
	cli_parser_close(&p);
	int ids[4];
	char *values[4];
	ck_assert_msg(parse(second, &shared, &p, ids, values) == CLI_END && ids[0] == OPT_FLAG &&
			      p.next == 2,
		      "The second command line is read from its start.");
	cli_shared_free(&shared);
	free_argv(second);
}
END_TEST

/* The help `command` prints, as a string the caller frees. */
static char *help_of(const struct cli_command *command)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cli_print_help(f, command, 88);
	fclose(f);
	return text;
}

START_TEST(test_help_lists_options_and_hides_aliases)
{
	char *help = help_of(&sample);
	ck_assert_msg(strstr(help, "usage: clharness sample [OPTION]... FILE...\n") != NULL,
		      "The help opens with the usage: %s", help);
	ck_assert_msg(strstr(help, "  -d, --device NAME   where\n") != NULL,
		      "A shared option with a short form shows both: %s", help);
	ck_assert_msg(strstr(help, "      --flag          a flag of the command's own\n"),
		      "An own option is listed with its help: %s", help);
	ck_assert_msg(strstr(help, "--colour") == NULL, "An alias is not listed: %s", help);
	ck_assert_msg(strstr(help, "  -h, --help          print this help\n") != NULL,
		      "Every command has --help.");
	free(help);
}
END_TEST

/* Every command's description: each option with help (or an alias of one listed before
 * it), a summary, and help lines within 88 columns. */
START_TEST(test_every_command_is_described)
{
	const struct cli_command *commands[] = {
		&cli_devices,	&cli_run,   &cli_check, &cli_hunt,
		&cli_catalogue, &cli_grade, &cli_bench, &cli_merge
	};
	for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
		const struct cli_command *cmd = commands[c];
		ck_assert_msg(cmd->summary && cmd->about && cmd->main,
			      "%s has a summary, what it does and a main.", cmd->name);
		for (size_t i = 0; cmd->options && cmd->options[i].id; i++) {
			const struct cli_option *o = &cmd->options[i];
			bool alias_of_earlier = false;
			for (size_t j = 0; j < i; j++)
				alias_of_earlier |= cmd->options[j].id == o->id;
			ck_assert_msg(o->help || alias_of_earlier,
				      "%s --%s has help, or is an alias of an option before it.",
				      cmd->name, o->name);
			for (size_t j = 0; j < i; j++)
				ck_assert_msg(strcmp(cmd->options[j].name, o->name) != 0,
					      "%s --%s is described once.", cmd->name, o->name);
		}
		char *help = help_of(cmd);
		for (char *line = help, *end; *line; line = end + 1) {
			end = strchr(line, '\n');
			ck_assert_msg(end != NULL, "%s's help ends its last line.", cmd->name);
			ck_assert_msg(end - line <= 88, "%s's help wraps at 88 columns: %.*s",
				      cmd->name, (int)(end - line), line);
		}
		free(help);
	}
}
END_TEST

START_TEST(test_wrapping_breaks_between_words)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cli_print_wrapped(f, "aaa bbb ccc\nddd", 0, 2, 8);
	fclose(f);
	ck_assert_msg(strcmp(text, "aaa bbb\n  ccc\n  ddd\n") == 0,
		      "Words move whole to the next line, indented; '\\n' ends a paragraph: "
		      "'%s'",
		      text);
	free(text);
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, test_long_short_and_shared_options);
	tcase_add_test(tc, test_mistakes_stop_with_usage_status);
	tcase_add_test(tc, test_parsing_twice_starts_afresh);
	tcase_add_test(tc, test_help_lists_options_and_hides_aliases);
	tcase_add_test(tc, test_every_command_is_described);
	tcase_add_test(tc, test_wrapping_breaks_between_words);
	suite_add_tcase(s, tc);
	return s;
}
