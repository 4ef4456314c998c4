/* check_catalogue.c - results read back from JSON Lines, and the catalogue page made of
 * them: its rows, its verdict counts, and the note on buggy cases a device gets right. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "results/catalogue.h"
#include "results/resultfile.h"

static struct test_case *named_case(const char *name, const char *about)
{
	struct test_case *tc = xcalloc(1, sizeof *tc);
	tc->name = xstrdup(name);
	tc->about = xstrdup(about);
	return tc;
}

/* The row of case `name`, the page's line that links it; NULL if there is none. */
static char *row_of(const char *page, const char *name)
{
	char *link = xasprintf("| [%s](", name);
	const char *at = strstr(page, link);
	free(link);
	return at ? xstrndup(at, strcspn(at, "\n")) : NULL;
}

START_TEST(test_a_broken_line_is_reported_and_the_rest_read)
{
	char *path = test_data_path("results/two_cases.jsonl");
	struct recorded_list list = { 0 };
	struct diag_list diags = { 0 };
	ck_assert_msg(resultfile_read(path, &list, &diags) == 0, "A readable file reads.");
	ck_assert_msg(list.count == 5, "Five results, not %zu: blank lines are not results.",
		      list.count);
	ck_assert_msg(diags.count == 1 && diags.items[0].line == 3,
		      "The line that is not JSON is reported at line 3 (%zu diagnostics).",
		      diags.count);
	const struct recorded_result *sim = &list.items[1];
	ck_assert_msg(sim->simulated && sim->nfindings == 1 &&
			      strcmp(sim->findings[0].kind, "race") == 0 &&
			      strcmp(sim->findings[0].space, "local") == 0 &&
			      sim->findings[0].line == 8 && sim->findings[0].other_line == 10,
		      "A simulator's finding keeps its kind, space and both lines.");
	ck_assert_msg(!list.items[0].simulated && strcmp(list.items[0].target, "pocl-cpu") == 0,
		      "A device's result is not simulated.");
	recorded_list_free(&list);
	diag_list_free(&diags);
	ck_assert_msg(resultfile_read("/nonexistent/results.jsonl", &list, &diags) < 0 &&
			      diags.count == 1,
		      "A file that cannot be read is an error.");
	diag_list_free(&diags);
	free(path);
}
END_TEST

START_TEST(test_a_line_number_out_of_range_is_no_line)
{
	/* A file read back may hold any number; one past int (as the fuzzer found) or not
	 * whole is no line, not an undefined conversion. */
	char text[] = "{\"case\":\"demo/racy\",\"target\":\"oclgrind\",\"backend\":\"oclgrind\","
		      "\"verdict\":\"race\",\"findings\":[{\"severity\":\"error\",\"kind\":\"race\","
		      "\"at\":{\"line\":111111111111111},\"other\":{\"line\":7.5}},"
		      "{\"severity\":\"error\",\"kind\":\"race\",\"at\":{\"line\":12},"
		      "\"other\":{\"line\":-3}}]}\n";
	struct recorded_list list = { 0 };
	struct diag_list diags = { 0 };
	resultfile_parse("fuzzed.jsonl", text, &list, &diags);
	ck_assert_msg(list.count == 1 && list.items[0].nfindings == 2, "The result is read.");
	const struct recorded_finding *f = list.items[0].findings;
	ck_assert_msg(f[0].line == 0 && f[0].other_line == 0 && f[1].line == 12 &&
			      f[1].other_line == 0,
		      "Lines too large, not whole or negative read as none (%d %d %d %d).",
		      f[0].line, f[0].other_line, f[1].line, f[1].other_line);
	recorded_list_free(&list);
	diag_list_free(&diags);
}
END_TEST

START_TEST(test_page_rows_and_the_right_output_note)
{
	char *paths[2] = { test_data_path("results/two_cases.jsonl"),
			   test_data_path("results/other_machine.jsonl") };
	struct recorded_list lists[2] = { 0 };
	struct diag_list diags = { 0 };
	for (int i = 0; i < 2; i++)
		resultfile_read(paths[i], &lists[i], &diags);
	struct catalogue_source sources[2] = { { "here.jsonl", &lists[0] },
					       { "h100.jsonl", &lists[1] } };
	struct test_case *cases[3] = { named_case("demo/racy", "a race | on local memory"),
				       named_case("demo/good", "a good kernel"),
				       named_case("other/unrun", "never run") };
	struct catalogue_counts counts;
	char *page = catalogue_markdown(cases, 3, sources, 2, &counts);

	ck_assert_msg(counts.cases == 3 && counts.topics == 2 && counts.buggy == 1 &&
			      counts.right_on_pocl == 1,
		      "3 cases, 2 topics, 1 buggy, 1 right on PoCL; got %zu, %zu, %zu, %zu.",
		      counts.cases, counts.topics, counts.buggy, counts.right_on_pocl);
	ck_assert_msg(strstr(page, "| Case | What it shows | Oclgrind | pocl-cpu | nvidia-h100 |"),
		      "Each real device of any results file is a column:\n%s", page);
	char *racy = row_of(page, "racy");
	ck_assert_msg(racy && strstr(racy, "a race \\| on local memory") &&
			      strstr(racy, "Right output on pocl-cpu in every run recorded here") &&
			      strstr(racy, "race, read-write on local memory, lines 8 and 10") &&
			      strstr(racy, "| pass (1 run) | wrong-output (1 run) |"),
		      "The racy case's row escapes its about line, notes PoCL's right output, "
		      "names the race's lines and counts each device's verdicts: %s",
		      racy);
	char *good = row_of(page, "good");
	ck_assert_msg(good && !strstr(good, "Right output") &&
			      strstr(good, "| pass (1 run) | 1 pass, 1 wrong-output | not run |"),
		      "A case without a finding gets no note, and mixed verdicts are counted: %s",
		      good);
	char *unrun = row_of(page, "unrun");
	ck_assert_msg(unrun && strstr(unrun, "| not run | not run | not run |"),
		      "A case with no results says so in every column: %s", unrun);
	ck_assert_msg(strstr(page, "`here.jsonl` (pocl-cpu, oclgrind); `h100.jsonl` (nvidia-h100)"),
		      "The header names each results file and its targets.");
	ck_assert_msg(strstr(page, "**1 of those gave the right output on PoCL in every run recorded here**"),
		      "The header counts the buggy cases PoCL gets right.");
	free(racy);
	free(good);
	free(unrun);
	free(page);
	for (int i = 0; i < 3; i++)
		case_free(cases[i]);
	for (int i = 0; i < 2; i++) {
		recorded_list_free(&lists[i]);
		free(paths[i]);
	}
	diag_list_free(&diags);
}
END_TEST

Suite *catalogue_suite(void)
{
	Suite *s = suite_create("catalogue");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, test_a_broken_line_is_reported_and_the_rest_read);
	tcase_add_test(tc, test_a_line_number_out_of_range_is_no_line);
	tcase_add_test(tc, test_page_rows_and_the_right_output_note);
	suite_add_tcase(s, tc);
	return s;
}
