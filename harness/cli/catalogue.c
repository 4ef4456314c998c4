/* catalogue.c - clharness catalogue: the catalogue page from cases and recorded results. */
#include "config.h"

#include <stdlib.h>

#include "base/util.h"
#include "cli/commands.h"
#include "cli/shared.h"
#include "results/catalogue.h"
#include "results/resultfile.h"

static const struct cli_option catalogue_opts[] = {
	{ 'r', "results", "FILE",
	  "results of `clharness run --json` to show; repeatable, so devices of several "
	  "machines stand side by side" },
	{ 0 },
};

static int catalogue_main(int argc, char **argv);

const struct cli_command cli_catalogue = {
	.name = "catalogue",
	.synopsis = "[--results FILE]... [CASE|DIR]...",
	.summary = "write the catalogue page (Markdown) from cases and recorded results",
	.about = "Writes the catalogue page, Markdown, to standard output: a row a case with "
		 "what it shows and, from each results file, its verdict on every target.",
	.options = catalogue_opts,
	.main = catalogue_main,
};

static int catalogue_main(int argc, char **argv)
{
	const char **files = NULL;
	size_t nfiles = 0;
	struct cli_parser p;
	cli_parser_open(&p, &cli_catalogue, argc, argv);
	int id;
	char *value;
	while ((id = cli_next(&p, &value)) >= 0) {
		files = xreallocarray(files, nfiles + 1, sizeof *files);
		files[nfiles++] = value;
	}
	cli_parser_close(&p);
	if (id == CLI_STOP) {
		free(files);
		return p.status;
	}
	int status = 0;
	struct walk paths = { 0 };
	struct recorded_list *lists = xcalloc(nfiles ? nfiles : 1, sizeof *lists);
	struct catalogue_source *sources = xcalloc(nfiles ? nfiles : 1, sizeof *sources);
	struct test_case **cases = NULL;
	size_t ncases = 0;
	if (cli_collect_cases(argc, argv, p.next, &paths) < 0) {
		status = EXIT_USAGE;
		goto out;
	}
	for (size_t f = 0; f < nfiles; f++) {
		struct diag_list diags = { 0 };
		if (resultfile_read(files[f], &lists[f], &diags) < 0)
			status = EXIT_USAGE;
		else if (diags.count > 0)
			status = EXIT_MISMATCH;
		cli_print_diags(&diags);
		diag_list_free(&diags);
		sources[f] = (struct catalogue_source){ .label = files[f], .results = &lists[f] };
	}
	if (status == EXIT_USAGE)
		goto out;
	cases = cli_load_cases(&paths, &ncases, NULL, NULL);
	if (ncases < paths.count)
		status = EXIT_MISMATCH;
	char *page = catalogue_markdown(cases, ncases, sources, nfiles, NULL);
	fputs(page, stdout);
	free(page);
out:
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	for (size_t f = 0; f < nfiles; f++)
		recorded_list_free(&lists[f]);
	free(lists);
	free(sources);
	walk_free(&paths);
	free(files);
	return status;
}
