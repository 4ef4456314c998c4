/* shared.c - the options and steps that several commands share, written once. */
#include "config.h"

#include "cli/shared.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "exec/select.h"
#include "results/html.h"
#include "results/sarif.h"

/* Adds each comma-separated pattern of `value` to the list. */
static void add_patterns(struct cli_shared *s, char *value)
{
	for (char *save = NULL, *p = strtok_r(value, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		s->patterns = xreallocarray(s->patterns, s->npatterns + 1, sizeof *s->patterns);
		s->patterns[s->npatterns++] = p;
	}
}

int cli_shape_option(const char *option, const char *value, struct shape **list, size_t *count)
{
	struct shape v;
	if (shape_parse(value, &v) < 0) {
		cli_usage_error("--%s takes a positive whole number, or one a dimension like "
				"1024x768, found '%s'",
				option, value);
		return -1;
	}
	*list = xreallocarray(*list, *count + 1, sizeof **list);
	(*list)[(*count)++] = v;
	return 0;
}

/* Appends `flag` and `value` to the build options, refusing what PoCL 3.1 and Oclgrind
 * 21.10 builds cannot take. Returns 1, or -1 after a usage error. */
static int add_build_option(struct cli_shared *s, const char *flag, const char *value)
{
	for (const char *p = value; (p = strstr(p, "-g")) != NULL; p += 2)
		if ((p == value || p[-1] == ' ') && (p[2] == '\0' || p[2] == ' ')) {
			cli_usage_error("build options must not hold -g: PoCL 3.1 and Oclgrind "
					"21.10 builds reject it, found '%s'",
					value);
			return -1;
		}
	strbuf_printf(&s->options, "%s%s%s", s->options.len ? " " : "", flag, value);
	s->kernel.options = s->options.data;
	return 1;
}

/* -I DIR: the folder by its absolute path, so the worker and a saved case find it from
 * wherever they run. */
static int include_option(struct cli_shared *s, const char *dir)
{
	char *real = realpath(dir, NULL);
	if (real == NULL || !is_dir(real)) {
		cli_usage_error("-I takes a folder, found '%s'%s%s", dir, real ? "" : ": ",
				real ? "" : strerror(errno));
		free(real);
		return -1;
	}
	/* Build options split at spaces, in every driver. */
	if (strpbrk(real, " \t\n'\"")) {
		cli_usage_error("-I %s: a folder whose path holds a space or a quote cannot be "
				"passed to a build; link it from a plain path",
				real);
		free(real);
		return -1;
	}
	int status = add_build_option(s, "-I", real);
	free(real);
	return status;
}

void cli_take_cl_options(const struct cli_command *command, int *argc, char **argv,
			 struct cli_shared *s)
{
	int kept = 1;
	bool operands = false;
	for (int i = 1; i < *argc; i++) {
		operands |= strcmp(argv[i], "--") == 0;
		/* --options -cl-std=CL2.0 is the value of --options. */
		bool a_value = i > 1 && cli_value_follows(command, argv[i - 1]);
		if (!operands && !a_value && strncmp(argv[i], "-cl-", 4) == 0) {
			add_build_option(s, "", argv[i]);
			continue;
		}
		argv[kept++] = argv[i];
	}
	argv[kept] = NULL;
	*argc = kept;
}

static int take_kernel_form(struct cli_shared *s, int id, char *value)
{
	struct adhoc_request *rq = &s->kernel;
	switch (id) {
	case CLI_KERNEL:
		rq->kernel = value;
		return 1;
	case CLI_GLOBAL:
	case CLI_LOCAL:
		if (shape_parse(value, id == CLI_GLOBAL ? &rq->global : &rq->local) < 0) {
			cli_usage_error("--%s takes a positive whole number, or one a dimension "
					"like 64x64, found '%s'",
					id == CLI_GLOBAL ? "global" : "local", value);
			return -1;
		}
		return 1;
	case CLI_ARG:
		rq->specs = xreallocarray(rq->specs, rq->nspecs + 1, sizeof *rq->specs);
		rq->specs[rq->nspecs++] = value;
		return 1;
	case CLI_DEFINE:
		if (*value == '\0' || *value == '=' || strpbrk(value, " \t\n'\"")) {
			cli_usage_error("-D takes NAME or NAME=VALUE without spaces or quotes, "
					"found '%s'",
					value);
			return -1;
		}
		return add_build_option(s, "-D", value);
	case CLI_INCLUDE:
		return include_option(s, value);
	case CLI_BUILD_OPTIONS:
		return add_build_option(s, "", value);
	default:
		return 0;
	}
}

int cli_shared_take(struct cli_shared *s, int id, char *value)
{
	long long n;
	switch (id) {
	case CLI_DEVICE:
		add_patterns(s, value);
		return 1;
	case CLI_SIZES:
		return cli_shape_option("size", value, &s->sizes, &s->nsizes) < 0 ? -1 : 1;
	case CLI_LOCALS:
		return cli_shape_option("local", value, &s->locals, &s->nlocals) < 0 ? -1 : 1;
	case CLI_JOBS:
		if (cli_positive("jobs", value, 1024, &n) < 0)
			return -1;
		s->jobs = (unsigned)n;
		return 1;
	case CLI_JSON:
		s->json = true;
		return 1;
	case CLI_TIMEOUT:
		return cli_seconds("timeout", value, &s->timeout_s) < 0 ? -1 : 1;
	case CLI_COLOR:
		if (strcmp(value, "auto") && strcmp(value, "always") && strcmp(value, "never")) {
			cli_usage_error("--color takes auto, always or never, found '%s'", value);
			return -1;
		}
		s->colour = value;
		return 1;
	case CLI_SUPPRESSIONS: {
		struct diag_list diags = { 0 };
		int status = suppressions_load(value, &s->suppressions, &diags);
		cli_print_diags(&diags);
		diag_list_free(&diags);
		s->have_suppressions = true;
		return status < 0 ? -1 : 1;
	}
	case CLI_SHARD:
		if (shard_parse(value, &s->shard) < 0) {
			cli_usage_error("--shard takes K/N, shard K of N (1 <= K <= N), found '%s'",
					value);
			return -1;
		}
		return 1;
	case CLI_JUNIT:
		s->junit_path = value;
		return 1;
	case CLI_SARIF:
		s->sarif_path = value;
		return 1;
	case CLI_HTML:
		s->html_dir = value;
		return 1;
	default:
		return take_kernel_form(s, id, value);
	}
}

int cli_next_own(struct cli_parser *p, struct cli_shared *s, char **value)
{
	for (;;) {
		int id = cli_next(p, value);
		if (id == CLI_END || id == CLI_STOP)
			return id;
		int taken = cli_shared_take(s, id, *value);
		if (taken < 0) {
			p->status = EXIT_USAGE;
			return CLI_STOP;
		}
		if (!taken)
			return id;
	}
}

void cli_shared_free(struct cli_shared *s)
{
	free(s->patterns);
	free(s->sizes);
	free(s->locals);
	suppression_list_free(&s->suppressions);
	free(s->kernel.specs);
	strbuf_free(&s->options);
	*s = (struct cli_shared){ 0 };
}

bool cli_colour_wanted(const struct cli_shared *s)
{
	const char *colour = s->colour ? s->colour : "auto";
	return strcmp(colour, "always") == 0 ||
	       (strcmp(colour, "auto") == 0 && isatty(STDOUT_FILENO));
}

int cli_kernel_form_complete(struct cli_shared *s, const char *path, const char *command)
{
	struct adhoc_request *rq = &s->kernel;
	rq->kernel_path = path;
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return cli_usage_error("cannot read the kernel file '%s'", path), -1;
	if (rq->kernel == NULL || rq->global.dims == 0 || rq->local.dims == 0) {
		cli_usage_error("%s FILE.cl needs --kernel NAME, --global G and --local L",
				command);
		return -1;
	}
	char global[SHAPE_TEXT_MAX], local[SHAPE_TEXT_MAX];
	shape_format(&rq->global, global);
	shape_format(&rq->local, local);
	if (rq->global.dims != rq->local.dims) {
		cli_usage_error("--global %s has %u dimension%s but --local %s has %u: give one "
				"work-group size a dimension",
				global, rq->global.dims, rq->global.dims == 1 ? "" : "s", local,
				rq->local.dims);
		return -1;
	}
	rq->patterns = s->patterns;
	rq->npatterns = s->npatterns;
	rq->timeout_s = s->timeout_s;
	rq->suppressions = s->have_suppressions ? &s->suppressions : NULL;
	return 0;
}

bool cli_is_case_file(const char *name)
{
	return has_suffix(name, ".yaml") || has_suffix(name, ".yml");
}

void cli_print_diags(const struct diag_list *diags)
{
	struct strbuf out = { 0 };
	diag_list_render(&out, diags, false);
	if (out.data)
		fputs(out.data, stderr);
	strbuf_free(&out);
}

/* Adds the case files of one named path. A folder that holds none is an error, as a path
 * that does not exist is: a run of nothing would read as a clean one. A folder met before
 * (named twice, or inside one named earlier) adds nothing and is no error. Returns -1 when
 * the path cannot be read (errno set), -2 when it holds no case file. */
static int add_case_files(struct walk *paths, const char *path, struct diag_list *warnings)
{
	bool met = walk_met(paths, path);
	size_t before = paths->count;
	if (walk_add(paths, path, cli_is_case_file, warnings) < 0)
		return -1;
	return !met && paths->count == before ? -2 : 0;
}

int cli_collect_cases(int argc, char **argv, int first, struct walk *paths)
{
	struct diag_list warnings = { 0 };
	int status = 0;
	if (first == argc) {
		const char *installed = CLH_PKGDATADIR "/cases";
		int added = add_case_files(paths, installed, &warnings);
		if (added < 0) {
			fprintf(stderr,
				"clharness: no case given, and %s %s: name case files or folders, "
				"e.g. clharness run cases/\n",
				added == -1 ? "no catalogue is installed at" : "no case file is in",
				installed);
			status = -1;
		}
	}
	for (int i = first; i < argc && status == 0; i++) {
		int added = add_case_files(paths, argv[i], &warnings);
		if (added == -1)
			cli_usage_error("cannot read '%s': %s", argv[i], strerror(errno));
		else if (added == -2)
			cli_usage_error("no case file in '%s': a case is a .yaml or .yml file, as "
					"cases/reduce/halving.yaml",
					argv[i]);
		if (added < 0)
			status = -1;
	}
	cli_print_diags(&warnings);
	diag_list_free(&warnings);
	return status;
}

struct test_case **cli_load_cases(const struct walk *paths, size_t *ncases,
				  void (*broken)(void *ctx, const char *path,
						 const struct diag_list *diags),
				  void *ctx)
{
	struct test_case **cases = xcalloc(paths->count ? paths->count : 1, sizeof *cases);
	*ncases = 0;
	for (size_t i = 0; i < paths->count; i++) {
		struct diag_list diags = { 0 };
		struct test_case *tc = case_load(paths->paths[i], &diags);
		if (tc)
			cases[(*ncases)++] = tc;
		else if (broken)
			broken(ctx, paths->paths[i], &diags);
		if (broken == NULL)
			cli_print_diags(&diags);
		diag_list_free(&diags);
	}
	return cases;
}

void cli_drop_misshapen(struct test_case **cases, size_t *ncases, const struct cli_shared *s,
			void (*broken)(void *ctx, const char *path, const struct diag_list *diags),
			void *ctx)
{
	size_t kept = 0;
	for (size_t i = 0; i < *ncases; i++) {
		struct test_case *tc = cases[i];
		char *why = NULL;
		for (size_t k = 0; why == NULL && k < s->nsizes; k++)
			why = case_shape_mismatch(tc, false, &s->sizes[k], "--size", SHAPE_AS_OPTION);
		for (size_t k = 0; why == NULL && k < s->nlocals; k++)
			why = case_shape_mismatch(tc, true, &s->locals[k], "--local", SHAPE_AS_OPTION);
		if (why == NULL) {
			cases[kept++] = tc;
			continue;
		}
		struct diag_list diags = { 0 };
		diag_add(&diags, DIAG_ERROR, tc->path, 0, 0, "%s", why);
		if (broken)
			broken(ctx, tc->path, &diags);
		else
			cli_print_diags(&diags);
		diag_list_free(&diags);
		free(why);
		case_free(tc);
	}
	*ncases = kept;
}

void cli_case_broken(void *ctx, const char *path, const struct diag_list *diags)
{
	report_broken_case(ctx, path, diags);
}

int cli_stopped_status(void)
{
	fprintf(stderr, "clharness: stopped by %s; the results above are all there are\n",
		strsignal(interrupt_signal()));
	return 128 + interrupt_signal();
}

int cli_make_out_dir(const char *dir, const char *what)
{
	if (mkdir(dir, 0777) == 0 || errno == EEXIST)
		return 0;
	fprintf(stderr, "clharness: cannot make the %s folder %s: %s\n", what, dir,
		strerror(errno));
	return -1;
}

struct findlog *cli_findlog_open(const struct cli_shared *s, const char *command, int *status)
{
	if (s->sarif_path == NULL && s->html_dir == NULL)
		return NULL;
	/* Said now, not after an hour of runs. */
	if (s->sarif_path) {
		FILE *f = fopen(s->sarif_path, "w");
		if (f == NULL || fclose(f) != 0) {
			*status = cli_usage_error("cannot write the SARIF log '%s': %s",
						  s->sarif_path, strerror(errno));
			return NULL;
		}
	}
	if (s->html_dir && html_prepare(s->html_dir) < 0) {
		*status = cli_usage_error("cannot write the HTML report in '%s': %s", s->html_dir,
					  strerror(errno));
		return NULL;
	}
	return findlog_new(command, NULL);
}

int cli_findlog_close(struct findlog *log, const struct cli_shared *s, int status)
{
	if (log == NULL)
		return status;
	if (status != 0 && status != EXIT_MISMATCH)
		findlog_incomplete(log, "the command stopped before every run was made");
	if (s->sarif_path && sarif_write(log, s->sarif_path) < 0) {
		fprintf(stderr, "clharness: cannot write the SARIF log '%s': %s\n", s->sarif_path,
			strerror(errno));
		status = EXIT_USAGE;
	}
	if (s->html_dir && html_write(log, s->html_dir) < 0) {
		fprintf(stderr, "clharness: cannot write the HTML report in '%s': %s\n",
			s->html_dir, strerror(errno));
		status = EXIT_USAGE;
	}
	findlog_free(log);
	return status;
}
