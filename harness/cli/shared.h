/* shared.h - the options several commands have, described and read once, and the steps
 * their flows share: finding and loading case files, printing diagnostics, stopping. */
#ifndef CLH_CLI_SHARED_H
#define CLH_CLI_SHARED_H

#include <stdbool.h>

#include "base/diag.h"
#include "base/shard.h"
#include "base/walk.h"
#include "case/shape.h"
#include "case/suppress.h"
#include "case/testcase.h"
#include "check/adhoc.h"
#include "grade/assignment.h"
#include "cli/options.h"
#include "results/report.h"

/* The ids of the shared options; a command's own start at CLI_OWN. */
enum cli_shared_id {
	CLI_DEVICE = 'd',
	CLI_SIZES = 'n',
	CLI_LOCALS = 'l',
	CLI_JOBS = 'j',
	CLI_DEFINE = 'D',
	CLI_INCLUDE = 'I',
	CLI_JSON = 256,
	CLI_TIMEOUT,
	CLI_COLOR,
	CLI_SUPPRESSIONS,
	CLI_SHARD,
	CLI_JUNIT,
	CLI_SARIF,
	CLI_HTML,
	/* The kernel form of check and hunt: one kernel named without a case file. */
	CLI_KERNEL,
	CLI_GLOBAL,
	CLI_LOCAL,
	CLI_ARG,
	CLI_BUILD_OPTIONS,
	CLI_OWN = 512,
};

/* Their descriptions. Where an option means the same in every command it has one help;
 * where a command reads it its own way (what a time-out bounds), the command says how. */
/* clang-format off */
#define CLI_OPT_DEVICE(help)       { CLI_DEVICE, "device", "NAME", help }
#define CLI_OPT_SIZES(help)        { CLI_SIZES, "size", "N", help }
#define CLI_OPT_LOCALS(help)       { CLI_LOCALS, "local", "L", help }
#define CLI_OPT_JOBS(help)         { CLI_JOBS, "jobs", "N", help }
#define CLI_OPT_JSON(help)         { CLI_JSON, "json", NULL, help }
#define CLI_OPT_TIMEOUT(help)      { CLI_TIMEOUT, "timeout", "S", help }
#define CLI_OPT_SHARD(help)        { CLI_SHARD, "shard", "K/N", help }
#define CLI_OPT_JUNIT(help)        { CLI_JUNIT, "junit", "FILE", help }
#define CLI_OPT_SARIF \
	{ CLI_SARIF, "sarif", "FILE", \
	  "also write the findings as SARIF 2.1.0 to FILE, for code review and code " \
	  "scanning; paths relative to the working directory" }
#define CLI_OPT_HTML \
	{ CLI_HTML, "html", "DIR", \
	  "also write a report as one self-contained page, DIR/index.html: the summary, " \
	  "each finding with its lines side by side, the work-items and the fix" }
#define CLI_OPT_SUPPRESSIONS(help) { CLI_SUPPRESSIONS, "suppressions", "FILE", help }
#define CLI_OPT_COLOR \
	{ CLI_COLOR, "color", "WHEN", \
	  "colour the text report: auto (on a terminal), always or never" }, \
	{ CLI_COLOR, "colour", "WHEN", NULL }
#define CLI_DEVICE_PATTERN_HELP \
	"a short name from `clharness devices` (pocl-cpu, oclgrind), a platform (nvidia), a " \
	"type (cpu, gpu, simulator) or all; comma-separated or repeated"
#define CLI_OPT_KERNEL_FORM \
	{ CLI_KERNEL, "kernel", "NAME", "the kernel to launch" }, \
	{ CLI_GLOBAL, "global", "G", "the global size: 4096, or 64x64 for a 2-D launch" }, \
	{ CLI_LOCAL, "local", "L", "the work-group size, as many dimensions as --global" }, \
	{ CLI_ARG, "arg", "SPEC", \
	  "one argument in the case-file syntax, e.g. '{buffer: float, count: N, init: " \
	  "{random: [0, 10]}}', '{local: float, count: L}', '{scalar: uint, value: 1000}'; " \
	  "bound by its name: or else in order; the rest come from the kernel's signature" }, \
	{ CLI_DEFINE, "define", "NAME[=VALUE]", \
	  "build the kernel with -D NAME[=VALUE], as its application does; repeatable" }, \
	{ CLI_INCLUDE, "include", "DIR", \
	  "build it with -I DIR, where its #include files are; repeatable" }, \
	{ CLI_BUILD_OPTIONS, "options", "TEXT", \
	  "other build options, e.g. '-cl-fast-relaxed-math'; an argument of its own that " \
	  "starts with -cl- (-cl-std=CL2.0) is taken as one too" }
/* clang-format on */

/* What the shared options said. Each command sets its defaults before parsing. */
struct cli_shared {
	char **patterns; /* --device, split at commas */
	size_t npatterns;
	struct shape *sizes; /* --size */
	size_t nsizes;
	struct shape *locals; /* --local of run and bench */
	size_t nlocals;
	bool json;
	unsigned timeout_s;
	const char *colour; /* auto, always or never */
	struct suppression_list suppressions;
	bool have_suppressions;
	unsigned jobs;
	struct shard shard;
	const char *junit_path;
	const char *sarif_path; /* --sarif */
	const char *html_dir;	/* --html */
	struct adhoc_request kernel; /* the kernel form's */
	struct strbuf options;	     /* its build options, as -D, -I and the rest gave them */
};

/* Takes from argv the arguments that start with -cl- (-cl-std=CL2.0), build options of
 * the kernel form that getopt cannot read, up to a "--" and except an option's value;
 * *argc shrinks to match. */
void cli_take_cl_options(const struct cli_command *command, int *argc, char **argv,
			 struct cli_shared *s);

/* cli_next for a command with shared options: takes those into `s` itself and returns
 * the id of the next of the command's own, CLI_END or CLI_STOP. */
int cli_next_own(struct cli_parser *p, struct cli_shared *s, char **value);
/* Takes option `id` if it is a shared one: 1 when taken, 0 when it is the command's own,
 * -1 after a usage error (EXIT_USAGE is the status). */
int cli_shared_take(struct cli_shared *s, int id, char *value);
void cli_shared_free(struct cli_shared *s);

/* The log --sarif and --html are written from, after making sure their files can be
 * written (NULL without either, or after saying why one cannot be, with *status set to
 * EXIT_USAGE). */
struct findlog *cli_findlog_open(const struct cli_shared *s, const char *command, int *status);
/* Writes the log to --sarif's file and --html's page and frees it: `status`, or
 * EXIT_USAGE when one cannot be written. */
int cli_findlog_close(struct findlog *log, const struct cli_shared *s, int status);
/* Whether the text report is coloured: always, or auto on a terminal. */
bool cli_colour_wanted(const struct cli_shared *s);

/* The kernel file of the kernel form and what the options said of it, checked as
 * `command` needs them: a readable file, --kernel, and --global and --local of as many
 * dimensions, the one a multiple of the other. Returns -1 after a usage error. */
int cli_kernel_form_complete(struct cli_shared *s, const char *path, const char *command);

/* A shape option's value ("1024" or "1024x768") appended to the list; -1 after saying what
 * is wrong with it. */
int cli_shape_option(const char *option, const char *value, struct shape **list, size_t *count);

bool cli_is_case_file(const char *name);
/* The case files named from argv[first] on, folders searched; with none, the installed
 * catalogue. Entries that are skipped are warned about. -1 after saying what is wrong. */
int cli_collect_cases(int argc, char **argv, int first, struct walk *paths);
/* Loads every case of `paths`; each that does not load goes to broken(), or with none to
 * stderr, so the others still count. Returns the loaded ones; the caller frees. */
struct test_case **cli_load_cases(const struct walk *paths, size_t *ncases,
				  void (*broken)(void *ctx, const char *path,
						 const struct diag_list *diags),
				  void *ctx);
/* Drops from `cases` each case that --size or --local does not fit (another number of
 * dimensions than it launches), each to broken() with the option, the case's dimensions
 * and how to write the shape; the others still run. */
void cli_drop_misshapen(struct test_case **cases, size_t *ncases, const struct cli_shared *s,
			void (*broken)(void *ctx, const char *path, const struct diag_list *diags),
			void *ctx);
/* A broken case's diagnostics, to the reporter `ctx`. */
void cli_case_broken(void *ctx, const char *path, const struct diag_list *diags);
/* Writes each diagnostic to stderr as GCC would. */
void cli_print_diags(const struct diag_list *diags);
/* After a termination signal (interrupt.h): says so, and returns the exit status it
 * gives, 128 plus the signal's number. */
int cli_stopped_status(void);
/* Makes folder `dir` for output (`what`: "report"), saying why not on failure. */
int cli_make_out_dir(const char *dir, const char *what);


#endif
