/* options.h - one description of a command: its synopsis, its options and what they do;
 * getopt_long's table, the short letters and the command's --help are all made from it,
 * so an option is never described in one place and parsed from another. */
#ifndef CLH_CLI_OPTIONS_H
#define CLH_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#define EXIT_MISMATCH 1
#define EXIT_USAGE    2

/* One option. An id that is a letter is also the option's short form (-d). */
struct cli_option {
	int id;		   /* what cli_next returns for it */
	const char *name;  /* the long name, without "--" */
	const char *value; /* the placeholder of its value in --help ("NAME"); NULL: a flag */
	const char *help;  /* a paragraph --help wraps; NULL: an alias --help leaves out */
};

/* One command, as `clharness NAME` runs it. */
struct cli_command {
	const char *name;
	const char *synopsis; /* the usage after "clharness NAME ", a line a form */
	const char *summary;  /* one line for `clharness --help` */
	const char *about;    /* what it does, before the options; '\n' ends a paragraph */
	const struct cli_option *options;   /* ending with an entry of id 0 */
	const char *after;		    /* after the options, or NULL */
	int (*main)(int argc, char **argv); /* argv[0] is the command's name */
};

/* What cli_next returns besides an option's id. */
enum {
	CLI_END = -1,  /* the options are over: the operands start at argv[p->next] */
	CLI_STOP = -2, /* the command ends now with exit status p->status: after --help
			* (0) or a mistake, already said (2) */
};

/* Walks a command line through its command's options. */
struct cli_parser {
	const struct cli_command *command;
	int argc;
	char **argv;
	int next; /* the first operand, once cli_next returned CLI_END */
	int status;
	struct option *longopts;
	char *shortopts;
};

void cli_parser_open(struct cli_parser *p, const struct cli_command *command, int argc,
		     char **argv);
/* The id of the next option, with its value in *value (NULL for a flag), CLI_END or
 * CLI_STOP. --help and -h are every command's: they print its help to stdout and stop. */
int cli_next(struct cli_parser *p, char **value);
void cli_parser_close(struct cli_parser *p);

/* Whether `arg` is one of the command's options whose value is the next argument
 * ("--options" or "-D", not "--options=-O2" or "-DN=4"), as getopt_long reads it. */
bool cli_value_follows(const struct cli_command *command, const char *arg);

/* Says "clharness: ..." and where help is on stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A command's whole --help: usage, what it does, its options wrapped at `width`. */
void cli_print_help(FILE *out, const struct cli_command *command, int width);
/* `text` wrapped at `width` columns, each line opening with `indent` spaces except the
 * first, which opens after `first` columns already written; '\n' ends a paragraph. */
void cli_print_wrapped(FILE *out, const char *text, int first, int indent, int width);
/* The usage lines of each command, "usage: clharness NAME ..." then aligned beneath. */
void cli_print_synopses(FILE *out, const struct cli_command *const *commands, size_t count);

/* Values of options, each read one way wherever it appears; -1 after saying what is
 * wrong with `text` as the value of --`option`. */
int cli_positive(const char *option, const char *text, long long max, long long *out);
int cli_seconds(const char *option, const char *text, unsigned *seconds);

#endif
