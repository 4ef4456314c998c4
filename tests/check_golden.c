/* check_golden.c - goldens: where they live, how they parse, how a result is judged by
 * one (with the diff a person reads), and what --bless writes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "results/golden.h"

/* Writes `text` to a fresh file and returns its path; the caller unlinks and frees it. */
static char *temp_golden(const char *text)
{
	char *path = xstrdup("/tmp/clharness-golden-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "A temporary file can be made.");
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static const char good_text[] = "# a comment\n"
				"devices: ran\n"
				"oclgrind N=256 L=32: wrong-output\n"
				"  error race read-write local 14 14\n"
				"oclgrind N=256 L=64: pass\n";

/* A simulator result of reduce/x at L with one race finding at line `other`. */
static struct result simulated(long long l, int other)
{
	struct result r = { .case_name = xstrdup("reduce/x"),
			    .case_path = xstrdup("cases/reduce/x.yaml"),
			    .target = xstrdup("oclgrind"),
			    .backend = xstrdup("oclgrind"),
			    .simulated = true,
			    .outputs_repeat = true,
			    .n = shape_1d(256),
			    .l = shape_1d(l),
			    .verdict = VERDICT_RACE,
			    .output = VERDICT_WRONG_OUTPUT };
	r.findings.items = xcalloc(1, sizeof *r.findings.items);
	r.findings.count = 1;
	r.findings.items[0] = (struct finding){ .kind = FINDING_RACE,
						.severity = DIAG_ERROR,
						.what = xstrdup("read-write"),
						.space = xstrdup("local"),
						.at = { 14, 17, 'w' },
						.other = { other, 20, 'r' },
						.count = 3 };
	return r;
}

/* simulated()'s race at line 14, as pocl-cpu+racecheck reports it: runs that vary. */
static struct result instrumented(long long l)
{
	struct result r = simulated(l, 14);
	free(r.target);
	r.target = xstrdup("pocl-cpu+racecheck");
	r.outputs_repeat = false;
	return r;
}

START_TEST(test_path_beside_the_cases_folder)
{
	char *p = golden_path_for("cases/reduce/x.yaml");
	ck_assert_str_eq(p, "expected/reduce/x.expect");
	free(p);
	p = golden_path_for("/usr/share/clharness/cases/scan/y.yml");
	ck_assert_str_eq(p, "/usr/share/clharness/expected/scan/y.expect");
	free(p);
	ck_assert_msg(golden_path_for("mycases/x.yaml") == NULL,
		      "A folder that only ends in 'cases' is not a catalogue.");
	ck_assert_msg(golden_path_for("x.yaml") == NULL, "A lone case file has no golden.");
}
END_TEST

START_TEST(test_load_runs_and_findings)
{
	char *path = temp_golden(good_text);
	struct diag_list diags = { 0 };
	struct golden *g = golden_load(path, &diags);
	ck_assert_msg(g != NULL && diags.count == 0, "A good golden loads without errors.");
	ck_assert_msg(strcmp(g->devices_text, "ran") == 0, "devices: ran is read.");
	ck_assert_msg(g->nruns == 2, "Two runs, not %zu.", g->nruns);
	ck_assert_str_eq(g->runs[0].label, "oclgrind N=256 L=32");
	ck_assert_str_eq(g->runs[0].output, "wrong-output");
	ck_assert_msg(g->runs[0].nfindings == 1 && g->runs[1].nfindings == 0,
		      "Findings belong to the run above them.");
	ck_assert_str_eq(g->runs[0].findings[0], "error race read-write local 14 14");
	golden_free(g);
	unlink(path);
	free(path);
	ck_assert_msg(golden_load("/nonexistent/x.expect", &diags) == NULL && diags.count == 0,
		      "A missing golden is no error: the case simply has none.");
}
END_TEST

START_TEST(test_mistakes_are_reported_at_their_line)
{
	char *path = temp_golden("devices: maybe\n"
				 "  error race read-write local 1 2\n"
				 "oclgrind N=1 L=1: fine\n"
				 "what is this\n");
	struct diag_list diags = { 0 };
	ck_assert_msg(golden_load(path, &diags) == NULL, "A malformed golden does not load.");
	ck_assert_msg(diags.count == 4, "Each bad line is one error, not %zu.", diags.count);
	ck_assert_msg(diags.items[0].line == 1 && strstr(diags.items[0].message, "found 'maybe'"),
		      "devices: takes pass, ran or verdicts: %s", diags.items[0].message);
	ck_assert_msg(diags.items[1].line == 2 && strstr(diags.items[1].message, "needs a run"),
		      "A finding needs a run above it: %s", diags.items[1].message);
	ck_assert_msg(diags.items[2].line == 3 && diags.items[2].col == 19 &&
			      strstr(diags.items[2].message, "unknown verdict 'fine'"),
		      "An unknown verdict is pointed at: %d:%d %s", diags.items[2].line,
		      diags.items[2].col, diags.items[2].message);
	ck_assert_msg(diags.items[3].line == 4, "A line of no known shape is an error.");
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_judging_simulator_runs)
{
	char *path = temp_golden(good_text);
	struct diag_list diags = { 0 };
	struct golden *g = golden_load(path, &diags);

	struct result same = simulated(32, 14);
	golden_judge(g, &same);
	ck_assert_msg(same.expect == EXPECT_MET && result_expected(&same),
		      "A run with the golden's verdict and findings is expected.");

	struct result moved = simulated(32, 15);
	golden_judge(g, &moved);
	ck_assert_msg(moved.expect == EXPECT_UNMET && !result_expected(&moved),
		      "A finding at another line is not what the golden says.");
	ck_assert_msg(strstr(moved.expect_diff, "-   error race read-write local 14 14") &&
			      strstr(moved.expect_diff, "+   error race read-write local 14 15") &&
			      strstr(moved.expect_diff, ":3: error: oclgrind N=256 L=32 differs"),
		      "The diff names the golden's line and shows both sides:\n%s",
		      moved.expect_diff);

	struct result extra = simulated(64, 14);
	golden_judge(g, &extra);
	ck_assert_msg(extra.expect == EXPECT_UNMET &&
			      strstr(extra.expect_diff, "- oclgrind N=256 L=64: pass") &&
			      strstr(extra.expect_diff, "+ oclgrind N=256 L=64: wrong-output"),
		      "A different output verdict shows in the diff:\n%s", extra.expect_diff);

	struct result unknown = simulated(128, 14);
	golden_judge(g, &unknown);
	ck_assert_msg(unknown.expect == EXPECT_UNMET &&
			      strstr(unknown.expect_diff, "has no run 'oclgrind N=256 L=128'"),
		      "A run the golden does not list is unexpected.");
	ck_assert_msg(golden_unseen(g) == NULL, "Every listed run was seen.");
	result_free(&same);
	result_free(&moved);
	result_free(&extra);
	result_free(&unknown);
	golden_free(g);
	unlink(path);
	free(path);
}
END_TEST

/* An instrumented device's run varies: its block's findings must all be there, and any
 * more of their family, but nothing else, with `ran` for an output right or wrong. */
START_TEST(test_judging_runs_that_vary)
{
	char *path = temp_golden("devices: ran\n"
				 "pocl-cpu+racecheck N=256 L=32: ran\n"
				 "  error race read-write local 14 14\n"
				 "pocl-cpu+racecheck N=256 L=64: pass\n");
	struct diag_list diags = { 0 };
	struct golden *g = golden_load(path, &diags);
	ck_assert_msg(g != NULL && diags.count == 0, "A run that ran loads.");
	struct result r = instrumented(32);
	r.output = VERDICT_PASS;
	golden_judge(g, &r);
	ck_assert_msg(r.expect == EXPECT_MET, "A right output where it may be wrong is met.");
	result_free(&r);

	r = instrumented(32);
	r.findings.items = xreallocarray(r.findings.items, 2, sizeof *r.findings.items);
	finding_copy(&r.findings.items[1], &r.findings.items[0]);
	r.findings.items[1].other.line = 15;
	r.findings.count = 2;
	golden_judge(g, &r);
	ck_assert_msg(
		r.expect == EXPECT_MET,
		"Another pair of lines of the same race, which this order of work-groups met, "
		"is met.");
	result_free(&r);

	r = instrumented(64);
	r.output = VERDICT_PASS;
	golden_judge(g, &r);
	ck_assert_msg(r.expect == EXPECT_UNMET,
		      "A race on a kernel its block calls clean is a difference.");
	result_free(&r);
	golden_free(g);
	unlink(path);
	free(path);
}
END_TEST

/* Judges one device result of `verdict` by a golden whose devices line is `line`. */
static enum expectation judge_device(const char *line, enum verdict verdict, char **diff)
{
	char *text = xasprintf("devices: %s\noclgrind N=256 L=32: pass\n", line);
	char *path = temp_golden(text);
	struct diag_list diags = { 0 };
	struct golden *g = golden_load(path, &diags);
	ck_assert_msg(g != NULL, "'devices: %s' loads.", line);
	struct result r = { .target = xstrdup("pocl-cpu"), .verdict = verdict };
	golden_judge(g, &r);
	enum expectation e = r.expect;
	if (diff)
		*diff = r.expect_diff ? xstrdup(r.expect_diff) : NULL;
	ck_assert_msg(golden_unseen(g) != NULL, "The simulator run the golden lists never came.");
	result_free(&r);
	golden_free(g);
	unlink(path);
	free(path);
	free(text);
	return e;
}

START_TEST(test_judging_devices)
{
	char *diff = NULL;
	ck_assert_msg(judge_device("pass", VERDICT_WRONG_OUTPUT, &diff) == EXPECT_UNMET &&
			      strstr(diff, "devices: pass, but pocl-cpu gave wrong-output"),
		      "devices: pass rejects a wrong output.");
	free(diff);
	ck_assert_msg(judge_device("ran", VERDICT_WRONG_OUTPUT, NULL) == EXPECT_MET,
		      "devices: ran accepts any output.");
	ck_assert_msg(judge_device("ran", VERDICT_CRASH, NULL) == EXPECT_UNMET,
		      "devices: ran still rejects a crash.");
	ck_assert_msg(judge_device("wrong-output", VERDICT_PASS, NULL) == EXPECT_UNMET,
		      "devices: wrong-output rejects a right output: the bug must show.");
	ck_assert_msg(judge_device("wrong-output", VERDICT_WRONG_OUTPUT, NULL) == EXPECT_MET,
		      "devices: wrong-output accepts a wrong output.");
	ck_assert_msg(judge_device("pass, crash", VERDICT_CRASH, NULL) == EXPECT_MET,
		      "A list of verdicts accepts each of them.");
	ck_assert_msg(judge_device("pass, crash", VERDICT_TIMEOUT, NULL) == EXPECT_UNMET,
		      "A list of verdicts rejects the others.");
	ck_assert_msg(judge_device("crash", VERDICT_SKIP, NULL) == EXPECT_MET,
		      "A device that skips the case meets any golden.");
}
END_TEST

START_TEST(test_blessing_derives_the_devices_word)
{
	struct golden_writer w = { 0 };
	struct result wrong = { .simulated = true,
				.backend = xstrdup("oclgrind"),
				.target = xstrdup("oclgrind"),
				.output = VERDICT_WRONG_OUTPUT };
	golden_writer_add(&w, &wrong);
	char *text = golden_writer_text(&w, "student/x", false, NULL);
	ck_assert_msg(strstr(text, "devices: wrong-output\n") != NULL,
		      "Wrong output in every run of a case not racy is wrong on every device:\n%s",
		      text);
	free(text);
	text = golden_writer_text(&w, "student/x", true, NULL);
	ck_assert_msg(strstr(text, "devices: ran\n") != NULL,
		      "A racy case's wrong output may differ between devices:\n%s", text);
	free(text);
	char *path = temp_golden("devices: pass, crash\n");
	struct diag_list diags = { 0 };
	struct golden *previous = golden_load(path, &diags);
	text = golden_writer_text(&w, "student/x", false, previous);
	ck_assert_msg(strstr(text, "devices: pass, crash\n") != NULL,
		      "A devices line a person wrote, naming a crash, is kept:\n%s", text);
	free(text);
	golden_free(previous);
	unlink(path);
	free(path);
	struct result right = { .simulated = true,
				.backend = xstrdup("oclgrind"),
				.target = xstrdup("oclgrind"),
				.output = VERDICT_PASS };
	golden_writer_add(&w, &right);
	text = golden_writer_text(&w, "student/x", false, NULL);
	ck_assert_msg(strstr(text, "devices: pass\n") != NULL,
		      "One right output among wrong ones is not a wrong-everywhere kernel:\n%s",
		      text);
	free(text);
	result_free(&wrong);
	result_free(&right);
	golden_writer_free(&w);
}
END_TEST

START_TEST(test_blessing_writes_what_judging_reads)
{
	struct golden_writer w = { 0 };
	struct result r = simulated(32, 14);
	struct result device = { .backend = xstrdup("device"), .verdict = VERDICT_PASS };
	golden_writer_add(&w, &device);
	golden_writer_add(&w, &r);
	char *text = golden_writer_text(&w, "reduce/x", true, NULL);
	ck_assert_msg(strstr(text, "devices: ran\n") != NULL,
		      "A racy case's devices word is ran:\n%s", text);
	ck_assert_msg(strstr(text, "oclgrind N=256 L=32: wrong-output\n"
				   "  error race read-write local 14 14\n") != NULL,
		      "Each simulator run is a block:\n%s", text);
	char *path = temp_golden(text);
	struct diag_list diags = { 0 };
	struct golden *g = golden_load(path, &diags);
	struct result again = simulated(32, 14);
	golden_judge(g, &again);
	ck_assert_msg(again.expect == EXPECT_MET, "A blessed golden accepts the run it came from.");
	result_free(&again);
	result_free(&r);
	result_free(&device);
	golden_free(g);
	golden_writer_free(&w);
	free(text);
	unlink(path);
	free(path);
}
END_TEST

Suite *golden_suite(void)
{
	Suite *s = suite_create("golden");
	TCase *tc = tcase_create("golden");
	tcase_add_test(tc, test_path_beside_the_cases_folder);
	tcase_add_test(tc, test_load_runs_and_findings);
	tcase_add_test(tc, test_mistakes_are_reported_at_their_line);
	tcase_add_test(tc, test_judging_simulator_runs);
	tcase_add_test(tc, test_judging_runs_that_vary);
	tcase_add_test(tc, test_judging_devices);
	tcase_add_test(tc, test_blessing_derives_the_devices_word);
	tcase_add_test(tc, test_blessing_writes_what_judging_reads);
	suite_add_tcase(s, tc);
	return s;
}
