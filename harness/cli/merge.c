/* merge.c - clharness merge: the shards of a grading, or of a run, joined into what one
 * grading or one run gives. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/commands.h"
#include "cli/shared.h"
#include "grade/assignment.h"
#include "grade/gradeout.h"
#include "grade/gradereport.h"
#include "results/runmerge.h"

static const struct cli_option merge_opts[] = {
	{ 'o', "out", "DIR|FILE",
	  "grading: where the reports and class.csv and class.md go (default: the first shard's "
	  "folder); a run: the merged JSON Lines (default: standard output), which `clharness "
	  "catalogue --results` makes the catalogue page of" },
	CLI_OPT_JUNIT("grading: also write a JUnit XML report of the class"),
	{ 0 },
};

static int merge_main(int argc, char **argv);

const struct cli_command cli_merge = {
	.name = "merge",
	.synopsis = "[-o DIR] [--junit FILE] ASSIGNMENT SHARD-DIR...\n[-o FILE] RESULTS...",
	.summary = "join the shards of a grading or of a run",
	.about = "Joins shards into what one grading or run gives: the reports of `grade "
		 "--shard` into the class table, or the JSON Lines of `run --json --shard` into "
		 "one run's. A shard that is missing, a student of a shard with no report, or a "
		 "run's shard that stopped before its end (no closing line) is named.",
	.options = merge_opts,
	.main = merge_main,
};

/* clharness merge RESULTS...: the shards of `run --json --shard` as one run's lines. */
static int merge_runs(int argc, char **argv, int first, const char *out_path)
{
	struct diag_list diags = { 0 };
	struct strbuf merged = { 0 };
	int status = 0;
	if (run_merge(argv + first, (size_t)(argc - first), &merged, &diags) < 0) {
		status = EXIT_USAGE;
	} else if (out_path) {
		FILE *f = fopen(out_path, "w");
		if (f == NULL || fputs(merged.data ? merged.data : "", f) < 0 || fclose(f) != 0) {
			fprintf(stderr, "clharness: cannot write %s: %s\n", out_path,
				strerror(errno));
			status = EXIT_USAGE;
		}
	} else {
		fputs(merged.data ? merged.data : "", stdout);
	}
	cli_print_diags(&diags);
	diag_list_free(&diags);
	strbuf_free(&merged);
	return status;
}

/* clharness merge ASSIGNMENT DIR...: the class table of a class graded in shards. */
static int merge_grades(int argc, char **argv, int first, const char *out_dir,
			struct class_outputs *outputs)
{
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load(argv[first], &diags);
	struct student_grade *grades = NULL;
	size_t n = 0;
	const char *out = out_dir ? out_dir : argv[first + 1];
	int status = 0;
	if (a == NULL || cli_make_out_dir(out, "report") < 0 ||
	    grade_merge(a, argv + first + 1, (size_t)(argc - first - 1), out, &grades, &n, &diags) <
		    0) {
		cli_print_diags(&diags);
		status = EXIT_USAGE;
		goto out;
	}
	char *table = NULL;
	outputs->out_dir = out;
	size_t unwritten = class_outputs_write(outputs, a, grades, n, &table, &diags);
	cli_print_diags(&diags);
	fputs(table, stdout);
	free(table);
	fprintf(stderr, "merge: %zu students of %s; reports and class table in %s/\n", n, a->name,
		out);
	status = unwritten ? EXIT_MISMATCH : 0;
out:
	for (size_t i = 0; i < n; i++)
		student_grade_free(&grades[i]);
	free(grades);
	diag_list_free(&diags);
	assignment_free(a);
	return status;
}

static int merge_main(int argc, char **argv)
{
	struct cli_shared shared = { 0 };
	const char *out = NULL;
	struct cli_parser p;
	cli_parser_open(&p, &cli_merge, argc, argv);
	int id;
	char *value;
	while ((id = cli_next_own(&p, &shared, &value)) >= 0)
		if (id == 'o')
			out = value;
	cli_parser_close(&p);
	struct class_outputs outputs = { .junit_path = shared.junit_path };
	int first = p.next, status;
	if (id == CLI_STOP)
		status = p.status;
	else if (argc - first < 1)
		status = cli_usage_error("merge needs an assignment and the shards' report "
					 "folders, or the shards' results of run --json --shard");
	else if (cli_is_case_file(argv[first]) && argc - first < 2)
		status = cli_usage_error("merge needs the shards' report folders after the "
					 "assignment");
	else if (cli_is_case_file(argv[first]))
		status = merge_grades(argc, argv, first, out, &outputs);
	else
		status = merge_runs(argc, argv, first, out);
	cli_shared_free(&shared);
	return status;
}
