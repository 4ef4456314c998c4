/* options.c - a command's options parsed and its --help written from one description. */
#include "config.h"

#include "cli/options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The command being parsed, so a usage error can point at its own --help. */
static const char *current_command;

/* Where an option's help starts in --help, and the width it wraps at. */
enum { HELP_COLUMN = 22, HELP_WIDTH = 88 };

static const struct cli_option help_option = { 'h', "help", NULL, "print this help" };

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "clharness: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (current_command)
		fprintf(stderr, "\nTry 'clharness %s --help'.\n", current_command);
	else
		fprintf(stderr, "\nTry 'clharness --help'.\n");
	return EXIT_USAGE;
}

static size_t option_count(const struct cli_option *options)
{
	size_t n = 0;
	while (options && options[n].id != 0)
		n++;
	return n;
}

void cli_parser_open(struct cli_parser *p, const struct cli_command *command, int argc, char **argv)
{
	size_t n = option_count(command->options);
	*p = (struct cli_parser){ .command = command, .argc = argc, .argv = argv, .next = argc };
	p->longopts = xcalloc(n + 2, sizeof *p->longopts);
	/* ':' first: a missing value comes back as ':', for a message of our own. */
	p->shortopts = xcalloc(2 * n + 4, 1);
	size_t s = 0;
	p->shortopts[s++] = ':';
	for (size_t i = 0; i <= n; i++) {
		const struct cli_option *o = i < n ? &command->options[i] : &help_option;
		int has_arg = o->value ? required_argument : no_argument;
		p->longopts[i] = (struct option){ o->name, has_arg, NULL, o->id };
		if (o->id > 0 && o->id < 128 && isalpha(o->id) && !strchr(p->shortopts, o->id)) {
			p->shortopts[s++] = (char)o->id;
			if (o->value)
				p->shortopts[s++] = ':';
		}
	}
	current_command = command->name;
	/* 0, not 1: glibc then forgets where it stopped in the last command line parsed. */
	optind = 0;
	opterr = 0;
}

/* The option as the user wrote it, for a message about it. */
static const char *written_option(const struct cli_parser *p, char *buf, size_t size)
{
	if (optopt > 0 && optopt < 128 && isalpha(optopt)) {
		snprintf(buf, size, "-%c", optopt);
		return buf;
	}
	const char *arg = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "?";
	snprintf(buf, size, "%.*s", (int)strcspn(arg, "="), arg);
	return buf;
}

int cli_next(struct cli_parser *p, char **value)
{
	*value = NULL;
	int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
	char buf[128];
	switch (c) {
	case -1:
		p->next = optind;
		return CLI_END;
	case 'h':
		cli_print_help(stdout, p->command, HELP_WIDTH);
		p->status = 0;
		return CLI_STOP;
	case '?':
		p->status = cli_usage_error("%s does not take the option '%s'", p->command->name,
					    written_option(p, buf, sizeof buf));
		return CLI_STOP;
	case ':':
		p->status = cli_usage_error("the option '%s' needs a value",
					    written_option(p, buf, sizeof buf));
		return CLI_STOP;
	default:
		*value = optarg;
		return c;
	}
}

bool cli_value_follows(const struct cli_command *command, const char *arg)
{
	for (const struct cli_option *o = command->options; o->id; o++) {
		if (o->value == NULL)
			continue;
		if (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, o->name) == 0)
			return true;
		if (o->id < 128 && isalpha(o->id) && arg[0] == '-' && arg[1] == o->id &&
		    arg[2] == '\0')
			return true;
	}
	return false;
}

void cli_parser_close(struct cli_parser *p)
{
	free(p->longopts);
	free(p->shortopts);
	p->longopts = NULL;
	p->shortopts = NULL;
}

void cli_print_wrapped(FILE *out, const char *text, int first, int indent, int width)
{
	int col = first;
	bool line_empty = true;
	for (const char *s = text; *s;) {
		if (*s == '\n') {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			line_empty = true;
			s++;
			continue;
		}
		if (*s == ' ') {
			s++;
			continue;
		}
		int len = (int)strcspn(s, " \n");
		if (!line_empty && col + 1 + len > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			line_empty = true;
		}
		if (!line_empty) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, (size_t)len, out);
		col += len;
		line_empty = false;
		s += len;
	}
	fputc('\n', out);
}

/* "  -d, --device NAME" or "      --tap", then the help from HELP_COLUMN. */
static void print_option(FILE *out, const struct cli_option *o, int width)
{
	int col;
	if (o->id > 0 && o->id < 128 && isalpha(o->id))
		col = fprintf(out, "  -%c, --%s", o->id, o->name);
	else
		col = fprintf(out, "      --%s", o->name);
	if (o->value)
		col += fprintf(out, " %s", o->value);
	if (col + 2 > HELP_COLUMN) {
		fputs("  ", out);
		col += 2;
	} else {
		col += fprintf(out, "%*s", HELP_COLUMN - col, "");
	}
	cli_print_wrapped(out, o->help, col, HELP_COLUMN, width);
}

/* "usage: clharness NAME SYNOPSIS", a line a form, the later ones under the first; a
 * form too long for a line goes on under its own start. */
static void print_usage(FILE *out, const struct cli_command *command, bool *first)
{
	const char *s = command->synopsis ? command->synopsis : "";
	do {
		size_t len = strcspn(s, "\n");
		int col = fprintf(out, "%s clharness %s", *first ? "usage:" : "      ",
				  command->name);
		char *form = xstrndup(s, len);
		if (len)
			fputc(' ', out);
		cli_print_wrapped(out, form, col + (len ? 1 : 0), col + 1, HELP_WIDTH);
		free(form);
		*first = false;
		s += len;
	} while (*s++ == '\n');
}

void cli_print_synopses(FILE *out, const struct cli_command *const *commands, size_t count)
{
	bool first = true;
	for (size_t i = 0; i < count; i++)
		print_usage(out, commands[i], &first);
}

void cli_print_help(FILE *out, const struct cli_command *command, int width)
{
	bool first = true;
	print_usage(out, command, &first);
	if (command->about) {
		fputc('\n', out);
		cli_print_wrapped(out, command->about, 0, 0, width);
	}
	fputs("\nOptions:\n", out);
	for (size_t i = 0; command->options && command->options[i].id != 0; i++)
		if (command->options[i].help)
			print_option(out, &command->options[i], width);
	print_option(out, &help_option, width);
	if (command->after) {
		fputc('\n', out);
		cli_print_wrapped(out, command->after, 0, 0, width);
	}
}

int cli_positive(const char *option, const char *text, long long max, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || end == text || *end != '\0' || v <= 0 || v > max) {
		cli_usage_error("--%s takes a whole number from 1 to %lld, found '%s'", option, max,
				text);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_seconds(const char *option, const char *text, unsigned *seconds)
{
	long long v;
	char *end;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end != '\0' || v <= 0 || v > 86400 * 7) {
		cli_usage_error("--%s takes whole seconds from 1 to %d, found '%s'", option,
				86400 * 7, text);
		return -1;
	}
	*seconds = (unsigned)v;
	return 0;
}
