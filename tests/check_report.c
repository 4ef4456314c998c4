/* check_report.c - the reporters: TAP lines and plan, JSON Lines, JUnit XML, escaping,
 * and which verdicts count as expected. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/annotate.h"
#include "check_suites.h"
#include "results/report.h"

static struct result sample(enum verdict verdict, bool racy)
{
	return (struct result){
		.case_name = "reduce/x",
		.case_path = "cases/reduce/x.yaml",
		.target = "pocl-cpu",
		.backend = "device",
		.n = shape_1d(1024),
		.l = shape_1d(64),
		.verdict = verdict,
		.output = verdict,
		.racy = racy,
		.repeat = 1,
		.kernel_ns = 2000000,
		.file = "cases/reduce/x.yaml",
		.line = 9,
		.col = 3,
		.message = verdict == VERDICT_PASS ? NULL : "out[3]: got \"nan\", want 4",
		.buffer = "out",
		.index = 3,
		.got = NAN,
		.want = 4,
		.mismatches = 2,
		.compared = 16,
	};
}

/* Reports the results in `format` and returns everything written, summary included. */
static char *report_all(enum report_format format, const struct result *results, size_t n)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	struct reporter rp;
	report_init(&rp, format, out, false);
	for (size_t i = 0; i < n; i++)
		report_result(&rp, &results[i]);
	if (format == REPORT_TAP)
		report_finish(&rp, 1, 1000000, false);
	fclose(out);
	return text;
}

START_TEST(test_expected_verdicts)
{
	struct result pass = sample(VERDICT_PASS, false),
		      wrong = sample(VERDICT_WRONG_OUTPUT, false),
		      racy = sample(VERDICT_WRONG_OUTPUT, true), skip = sample(VERDICT_SKIP, false),
		      racy_crash = sample(VERDICT_CRASH, true);
	ck_assert_msg(result_expected(&pass) && result_expected(&skip),
		      "pass and skip are expected.");
	ck_assert_msg(!result_expected(&wrong), "Wrong output of a good kernel is not expected.");
	ck_assert_msg(result_expected(&racy),
		      "Wrong output of a racy kernel is recorded, not failed.");
	ck_assert_msg(!result_expected(&racy_crash),
		      "A racy kernel must still run: a crash fails.");
}
END_TEST

/* A finding of `kind`, an error, added to r. */
static void add_finding(struct result *r, enum finding_kind kind, bool suppressed)
{
	r->findings.items =
		xreallocarray(r->findings.items, r->findings.count + 1, sizeof *r->findings.items);
	r->findings.items[r->findings.count++] = (struct finding){
		.kind = kind, .severity = DIAG_ERROR, .count = 1, .suppressed = suppressed
	};
}

START_TEST(test_a_cut_short_run_is_never_clean)
{
	struct result quiet = sample(VERDICT_PASS, false);
	add_finding(&quiet, FINDING_TRUNCATED, false);
	result_settle(&quiet);
	ck_assert_msg(quiet.verdict == VERDICT_INCOMPLETE && quiet.output == VERDICT_PASS,
		      "A run cut short with nothing else found is incomplete, not %s.",
		      verdict_name(quiet.verdict));
	ck_assert_msg(!result_expected(&quiet) && result_cut_short(&quiet),
		      "An incomplete run is not what a case expects.");

	struct result hidden = sample(VERDICT_PASS, false);
	add_finding(&hidden, FINDING_RACE, true);
	add_finding(&hidden, FINDING_TRUNCATED, false);
	result_settle(&hidden);
	ck_assert_msg(hidden.verdict == VERDICT_INCOMPLETE,
		      "A suppressed race leaves a cut-short run incomplete, not a pass.");

	struct result racy = sample(VERDICT_PASS, true);
	add_finding(&racy, FINDING_TRUNCATED, false);
	add_finding(&racy, FINDING_RACE, false);
	result_settle(&racy);
	ck_assert_msg(racy.verdict == VERDICT_RACE,
		      "What was seen before the cut stands: race, not %s.",
		      verdict_name(racy.verdict));
	ck_assert_msg(!result_expected(&racy),
		      "Even a racy case's race is unexpected when its run was cut short.");
	char *text = report_all(REPORT_JSON, &racy, 1);
	ck_assert_msg(strstr(text, "\"verdict\":\"race\",\"expected\":false,\"complete\":false") !=
			      NULL,
		      "The JSON says the run is not complete: %s", text);
	free(text);

	struct result wrong = sample(VERDICT_WRONG_OUTPUT, false);
	add_finding(&wrong, FINDING_TRUNCATED, false);
	result_settle(&wrong);
	ck_assert_msg(wrong.verdict == VERDICT_WRONG_OUTPUT,
		      "A wrong output stays the verdict of a run cut short.");
	free(quiet.findings.items);
	free(hidden.findings.items);
	free(racy.findings.items);
	free(wrong.findings.items);
}
END_TEST

START_TEST(test_tally_says_what_ran)
{
	struct run_tally t = { 0 };
	struct result skip = sample(VERDICT_SKIP, false), crash = sample(VERDICT_CRASH, false),
		      pass = sample(VERDICT_PASS, false);
	struct strbuf why = { 0 };
	run_tally_take(&t, &skip);
	run_tally_take(&t, &skip);
	ck_assert_msg(run_tally_status(&t) == EXIT_SKIP, "Only skips: Automake's skip, 77.");
	ck_assert(run_tally_unchecked(&why, &t, "trial"));
	ck_assert_str_eq(why.data, "every trial was a skip");
	strbuf_free(&why);
	run_tally_take(&t, &crash);
	ck_assert_msg(run_tally_status(&t) == 1, "Skips and a crash: nothing checked, 1.");
	ck_assert(run_tally_unchecked(&why, &t, "run"));
	ck_assert_str_eq(why.data, "no run ran to its end");
	strbuf_free(&why);
	struct strbuf text = { 0 };
	run_tally_text(&text, &t, "runs");
	ck_assert_str_eq(text.data, "0 of 3 runs ran to the end (2 skipped, 1 failed: timeout, "
				    "crash or build error)");
	run_tally_take(&t, &pass);
	ck_assert_msg(run_tally_status(&t) == 0, "One run that ran to its end checked something.");
	ck_assert_msg(!run_tally_unchecked(&why, &t, "run") && why.data == NULL,
		      "Something was checked: no reason, and nothing written.");
	strbuf_free(&text);
}
END_TEST

/* The summary's float error is how close kernels meant to be right come to their bounds:
 * a racy kernel whose elements happened to match, one of them at its bound, says nothing
 * of that, and must not read as a right kernel on the edge of failing. */
START_TEST(test_float_error_is_of_kernels_meant_to_be_right)
{
	struct result results[] = { sample(VERDICT_PASS, false), sample(VERDICT_PASS, true),
				    sample(VERDICT_WRONG_OUTPUT, true) };
	results[0].drift = 0.25;
	results[1].drift = 0.9996;
	results[2].drift = 0.5;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	struct reporter rp;
	report_init(&rp, REPORT_TEXT, out, false);
	for (size_t i = 0; i < 3; i++)
		report_result(&rp, &results[i]);
	report_finish(&rp, 1, 1000000, false);
	fclose(out);
	ck_assert_msg(strstr(text, "; worst float error 0.25 of its bound;") != NULL,
		      "The summary gives the good kernel's drift alone: %s", text);
	free(text);
}
END_TEST

START_TEST(test_tap_lines_and_plan)
{
	struct result r[] = { sample(VERDICT_PASS, false), sample(VERDICT_WRONG_OUTPUT, false),
			      sample(VERDICT_WRONG_OUTPUT, true), sample(VERDICT_SKIP, false) };
	r[3].message = "work-group size 64 is over the limit";
	char *text = report_all(REPORT_TAP, r, 4);
	ck_assert_msg(strstr(text, "ok 1 - reduce/x [pocl-cpu] N=1024 L=64\n") != NULL,
		      "A pass is ok.");
	ck_assert_msg(strstr(text, "not ok 2 - reduce/x [pocl-cpu] N=1024 L=64: wrong-output\n") !=
			      NULL,
		      "A wrong output is not ok, naming the verdict.");
	ck_assert_msg(strstr(text, "# cases/reduce/x.yaml:9:3: error: out[3]") != NULL,
		      "The diagnostic follows as a TAP comment.");
	ck_assert_msg(strstr(text, "ok 3 - reduce/x [pocl-cpu] N=1024 L=64: racy "
				   "kernel, wrong output recorded\n"),
		      "A racy kernel's wrong output is ok and says so.");
	ck_assert_msg(
		strstr(text, "ok 4 - reduce/x [pocl-cpu] N=1024 L=64 # SKIP work-group size 64") !=
			NULL,
		"A skip carries the SKIP directive and its reason.");
	ck_assert_msg(strstr(text, "\n1..4\n") != NULL, "The plan comes last.");
	free(text);
}
END_TEST

START_TEST(test_json_line)
{
	struct result r = sample(VERDICT_WRONG_OUTPUT, false);
	char *text = report_all(REPORT_JSON, &r, 1);
	ck_assert_msg(strncmp(text, "{\"case\":\"reduce/x\",", 19) == 0 &&
			      strchr(text, '\n') == text + strlen(text) - 1,
		      "One object on one line.");
	ck_assert_msg(strstr(text, "\"verdict\":\"wrong-output\",\"expected\":false") != NULL,
		      "Verdict and expectation.");
	ck_assert_msg(strstr(text, "\"message\":\"out[3]: got \\\"nan\\\", want 4\"") != NULL,
		      "Quotes are escaped.");
	ck_assert_msg(strstr(text, "\"got\":null,\"want\":4") != NULL,
		      "NaN, which JSON lacks, is null.");
	ck_assert_msg(strstr(text, "\"kernel_ms\":2,") != NULL, "Kernel time in milliseconds.");
	free(text);
}
END_TEST

START_TEST(test_escaping)
{
	struct strbuf sb = { 0 };
	json_string(&sb, "a\"b\\c\nd\x01");
	ck_assert_str_eq(sb.data, "\"a\\\"b\\\\c\\nd\\u0001\"");
	strbuf_free(&sb);
	xml_text(&sb, "<a href=\"x\">&</a>\x02");
	ck_assert_str_eq(sb.data, "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;&#xFFFD;");
	strbuf_free(&sb);
}
END_TEST

START_TEST(test_junit_counts)
{
	char *text = NULL;
	size_t size = 0;
	FILE *junit = open_memstream(&text, &size);
	FILE *devnull = fopen("/dev/null", "w");
	struct reporter rp;
	report_init(&rp, REPORT_TEXT, devnull, false);
	report_set_junit(&rp, junit);
	struct result r[] = { sample(VERDICT_PASS, false), sample(VERDICT_WRONG_OUTPUT, false),
			      sample(VERDICT_CRASH, false), sample(VERDICT_SKIP, false),
			      sample(VERDICT_WRONG_OUTPUT, true) };
	r[2].message = "killed";
	r[3].message = "no";
	for (size_t i = 0; i < 5; i++)
		report_result(&rp, &r[i]);
	report_finish(&rp, 1, 1000000, false);
	fclose(junit);
	fclose(devnull);
	ck_assert_msg(
		strstr(text, "<testsuite name=\"clharness\" tests=\"5\" failures=\"1\" "
			     "errors=\"1\" skipped=\"1\"") != NULL,
		"Five tests: a wrong output fails, a crash errs, a skip is skipped, and a racy "
		"kernel's recorded output passes.");
	ck_assert_msg(strstr(text, "<failure type=\"wrong-output\" message=\"out[3]: got "
				   "&quot;nan&quot;, want 4\">") != NULL,
		      "A failure carries its verdict and escaped message.");
	ck_assert_msg(strstr(text, "<system-out>") != NULL,
		      "The racy kernel's output goes to system-out.");
	free(text);
}
END_TEST

/* A build log of megabytes, and a source line of megabytes, reach a report cut to a few
 * kilobytes, with how much was cut said where it was. */
START_TEST(test_long_logs_and_lines_are_cut)
{
	size_t big = 3 * 1024 * 1024;
	struct result r = { .message = calloc(1, 10), .detail = malloc(big + 1) };
	memset(r.detail, 'x', big);
	r.detail[big] = '\0';
	memcpy(r.detail, "first error", 11);
	memcpy(r.detail + big - 10, "last words", 10);
	result_cut(&r);
	ck_assert_msg(strlen(r.detail) < RESULT_DETAIL_MAX + 100,
		      "A 3 MiB log is cut to about 32 KiB, not %zu bytes.", strlen(r.detail));
	ck_assert_msg(strncmp(r.detail, "first error", 11) == 0 && strstr(r.detail, "last words") &&
			      strstr(r.detail, "MiB of the log cut here"),
		      "The cut keeps the start and the end, and says how much went.");
	ck_assert_msg(strlen(r.message) == 0, "A short message is left alone.");
	free(r.message);
	free(r.detail);

	char path[] = "/tmp/check_report_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "The test can write a file.");
	FILE *f = fdopen(fd, "w");
	for (size_t i = 0; i < big / 8; i++)
		fputs(" x += 1;", f);
	fputs(" x += undeclared;\n", f);
	fclose(f);
	struct strbuf out = { 0 };
	int col = (int)(big / 8 * 8 + 7);
	diag_render(&out, path, 1, col, DIAG_ERROR, "use of undeclared identifier", false);
	ck_assert_msg(out.len < 1000, "A 3 MiB line is quoted around its column, not in %zu bytes.",
		      out.len);
	ck_assert_msg(strstr(out.data, "[3145545 bytes cut] ") && strstr(out.data, "undeclared;"),
		      "The quote says how much was cut before it, and holds the column:\n%s",
		      out.data);
	/* The caret stands under the 'u' of "undeclared". */
	const char *quoted = strstr(out.data, "| ") + 2;
	const char *caret = strstr(quoted, "\n       | ") + 10;
	ck_assert_msg(quoted[strchr(caret, '^') - caret] == 'u', "The caret points at the column.");
	strbuf_free(&out);
	unlink(path);
}
END_TEST

/* A workflow command as GitHub's runner reads it: the message's headline as its title,
 * its properties' separators and every line break escaped, no command for a note. */
START_TEST(test_annotation_escaped)
{
	struct strbuf out = { 0 };
	annotate_format(&out, "kernels/a,b.cl", 12, 7, DIAG_ERROR,
			"read-write data race on local memory: 100% of items\nline two");
	ck_assert_str_eq(out.data,
			 "::error file=kernels/a%2Cb.cl,line=12,col=7,title=clharness read-write "
			 "data race on local memory::read-write data race on local memory: 100%25 "
			 "of items%0Aline two\n");
	strbuf_free(&out);
	annotate_format(&out, NULL, 0, 0, DIAG_WARNING, "no device matches 'x:y'");
	ck_assert_str_eq(out.data, "::warning title=clharness no device matches 'x%3Ay'::no "
				   "device matches 'x:y'\n");
	strbuf_free(&out);
	annotate_format(&out, "k.cl", 3, 1, DIAG_NOTE, "the other access");
	ck_assert_msg(out.len == 0, "A note is no annotation.");
}
END_TEST

/* On, every error and warning diag_render writes is annotated once, at a path relative to
 * the workspace: the same bug at one line and another size, once; off, nothing is. */
START_TEST(test_annotations_once_each)
{
	FILE *f = tmpfile();
	ck_assert_msg(f != NULL, "The test can make a file.");
	struct strbuf text = { 0 };
	diag_render(&text, "/ws/kernels/k.cl", 4, 2, DIAG_ERROR, "before: annotations are off", false);
	annotate_to(f, "/ws/");
	diag_render(&text, "/ws/kernels/k.cl", 5, 3, DIAG_ERROR, "out-of-bounds read: x", false);
	diag_render(&text, "/ws/kernels/k.cl", 5, 3, DIAG_ERROR, "out-of-bounds read: y [N=2]", false);
	diag_render(&text, "/elsewhere/k.cl", 6, 0, DIAG_WARNING, "racy kernel (3 times)", false);
	diag_render(&text, "/ws/kernels/k.cl", 5, 3, DIAG_NOTE, "the other access", false);
	annotate_to(NULL, NULL);
	diag_render(&text, "/ws/kernels/k.cl", 7, 1, DIAG_ERROR, "after: off again", false);
	strbuf_free(&text);
	char got[512] = "";
	rewind(f);
	size_t n = fread(got, 1, sizeof got - 1, f);
	got[n] = '\0';
	fclose(f);
	ck_assert_str_eq(got, "::error file=kernels/k.cl,line=5,col=3,title=clharness "
			      "out-of-bounds read::out-of-bounds read: x\n"
			      "::warning file=/elsewhere/k.cl,line=6,title=clharness racy "
			      "kernel::racy kernel (3 times)\n");
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");
	tcase_add_test(tc, test_expected_verdicts);
	tcase_add_test(tc, test_a_cut_short_run_is_never_clean);
	tcase_add_test(tc, test_tally_says_what_ran);
	tcase_add_test(tc, test_float_error_is_of_kernels_meant_to_be_right);
	tcase_add_test(tc, test_tap_lines_and_plan);
	tcase_add_test(tc, test_json_line);
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_junit_counts);
	tcase_add_test(tc, test_long_logs_and_lines_are_cut);
	tcase_add_test(tc, test_annotation_escaped);
	tcase_add_test(tc, test_annotations_once_each);
	suite_add_tcase(s, tc);
	return s;
}
