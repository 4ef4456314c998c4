/* check_gradereport.c - what grading reports say: points per check, diagnostics at the
 * student's line for visible checks only, and a class table safe in CSV and Markdown. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "check_suites.h"
#include "grade/gradeload.h"
#include "grade/gradereport.h"

/* An assignment of two checks, the second hidden, built in memory. */
static void two_checks(struct assignment *a, struct grade_check *checks)
{
	checks[0] = (struct grade_check){ .name = "visible", .points = 30, .kind = GRADE_CORRECT };
	checks[1] = (struct grade_check){
		.name = "secret", .points = 20, .hidden = true, .kind = GRADE_SIMULATE
	};
	*a = (struct assignment){
		.name = "demo", .checks = checks, .nchecks = 2, .max_points = 50
	};
}

/* A student who failed both checks, each with a diagnostic. */
static void failed_both(const struct assignment *a, const char *name, struct student_grade *g)
{
	student_grade_init(a, name, "student.cl", g);
	g->checks[0] = (struct check_grade){
		.points = 12.5, .runs = 4, .passed = 1, .summary = xstrdup("1 of 4 runs right")
	};
	diag_add(&g->checks[0].diags, DIAG_ERROR, "student.cl", 3, 5, "wrong-output: out[0]");
	g->checks[1] = (struct check_grade){ .runs = 2,
					     .summary = xstrdup("0 of 2 race-free"),
					     .verdicts = 1u << VERDICT_TIMEOUT };
	diag_add(&g->checks[1].diags, DIAG_ERROR, "student.cl", 7, 1, "the secret race");
	g->total = 12.5;
}

START_TEST(test_hidden_check_shows_no_detail)
{
	struct assignment a;
	struct grade_check checks[2];
	two_checks(&a, checks);
	checks[1].about = "the hidden sizes 1000 and 4097";
	struct student_grade g;
	failed_both(&a, "alice", &g);
	g.checks[1].points = 15; /* part of the hidden check's points */
	g.total = 27.5;
	struct strbuf text = { 0 }, full = { 0 }, json = { 0 }, html = { 0 };
	grade_report_text(&text, &a, &g, GRADE_FOR_STUDENT, false);
	grade_report_text(&full, &a, &g, GRADE_FOR_INSTRUCTOR, false);
	grade_report_json(&json, &a, &g);
	grade_report_html(&html, &a, &g);
	ck_assert_msg(strstr(text.data, "visible   12.50 / 30  1 of 4 runs right") &&
			      strstr(text.data, "secret        hidden  failed (hidden check)") &&
			      strstr(text.data, "visible   12.50 / 30\n") &&
			      strstr(text.data, "0 of 1 hidden check passed"),
		      "The student's lines give a visible check's points and a hidden one's "
		      "outcome alone:\n%s",
		      text.data);
	ck_assert_msg(strstr(text.data, "student.cl:3:5: error: wrong-output: out[0]"),
		      "A visible check's diagnostic is in the report:\n%s", text.data);
	ck_assert_msg(!strstr(text.data, "secret race") && !strstr(text.data, "15") &&
			      !strstr(text.data, "27.5") && !strstr(text.data, "1000") &&
			      !strstr(html.data, "secret race") && !strstr(html.data, "15 of 20") &&
			      !strstr(html.data, "27.5") && !strstr(html.data, "4097"),
		      "A hidden check's points, the total holding them, its about and "
		      "diagnostics stay out of the student's text and page:\n%s",
		      text.data);
	ck_assert_msg(strstr(full.data, "secret       15 / 20  0 of 2 race-free (hidden check)") &&
			      strstr(full.data, "total     27.50 / 50") &&
			      strstr(full.data, "student.cl:7:1: error: the secret race"),
		      "The instructor's report holds the hidden check whole:\n%s", full.data);
	ck_assert_msg(strstr(json.data, "\"name\":\"secret\",\"kind\":\"simulate\",\"hidden\":true,"
					"\"points\":15.00,\"max\":20.00,\"passed\":false,\"runs\":2") &&
			      strstr(json.data, "the secret race"),
		      "The instructor's JSON record holds the hidden check whole:\n%s", json.data);
	strbuf_free(&text);
	strbuf_free(&full);
	strbuf_free(&json);
	strbuf_free(&html);
	student_grade_free(&g);
}
END_TEST

START_TEST(test_class_table_quotes_what_it_must)
{
	struct assignment a;
	struct grade_check checks[2];
	two_checks(&a, checks);
	struct student_grade g[3];
	failed_both(&a, "smith, jo", &g[0]);
	failed_both(&a, "a|b", &g[1]);
	failed_both(&a, "=1+2", &g[2]);
	g[1].blocker = xstrdup("does not build");
	g[1].blocker_verdict = VERDICT_BUILD_ERROR;
	struct strbuf csv = { 0 }, md = { 0 };
	grade_table_csv(&csv, &a, g, 3);
	grade_table_markdown(&md, &a, g, 3);
	ck_assert_msg(strcmp(csv.data, "student,visible,secret,total,note\n"
				       "\"smith, jo\",12.50,0,12.50,timeout\n"
				       "a|b,12.50,0,12.50,build-error\n"
				       "\"'=1+2\",12.50,0,12.50,timeout\n") == 0,
		      "CSV quotes a name with a comma, turns a formula into text and notes "
		      "timeouts and blockers:\n%s",
		      csv.data);
	ck_assert_msg(strstr(md.data, "| student | visible (30) | secret (20, hidden) | total "
				      "(50) | note |") &&
			      strstr(md.data, "| a\\|b | 12.50 | 0 | 12.50 | build-error |"),
		      "Markdown escapes '|' and marks hidden checks:\n%s", md.data);
	strbuf_free(&csv);
	strbuf_free(&md);
	student_grade_free(&g[0]);
	student_grade_free(&g[1]);
	student_grade_free(&g[2]);
}
END_TEST

/* The grader's own notes: a refusal's in place of its verdict, the sandbox's before the
 * verdicts it stands beside; and a report read back (--resume) keeps them. */
START_TEST(test_notes_of_the_grader_own_are_kept)
{
	struct assignment a;
	struct grade_check checks[2];
	two_checks(&a, checks);
	struct student_grade g[2];
	failed_both(&a, "refused", &g[0]);
	g[0].blocker = xstrdup("refused before it was built");
	g[0].blocker_verdict = VERDICT_BUILD_ERROR;
	g[0].note = xstrdup("inline-assembly");
	failed_both(&a, "stopped", &g[1]);
	g[1].note = xstrdup("sandbox");
	struct strbuf csv = { 0 };
	grade_table_csv(&csv, &a, g, 2);
	ck_assert_msg(strstr(csv.data, "\nrefused,12.50,0,12.50,inline-assembly\n") &&
			      strstr(csv.data, "\nstopped,12.50,0,12.50,sandbox and timeout\n"),
		      "The notes stand in the class table:\n%s", csv.data);
	char *root = xstrdup("/tmp/check_gradereport_XXXXXX");
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	for (size_t i = 0; i < 2; i++) {
		struct strbuf json = { 0 };
		grade_report_json(&json, &a, &g[i]);
		ck_assert_msg(write_text_file(root, "report.json", json.data) == 0,
			      "The test can write a report.");
		char *path = xasprintf("%s/report.json", root), *cause = NULL;
		struct student_grade back;
		ck_assert_msg(grade_report_read(path, &a, &back, &cause) == 0 && back.note &&
				      strcmp(back.note, g[i].note) == 0,
			      "A report read back keeps its note %s (read %s).", g[i].note,
			      back.note ? back.note : cause ? cause : "none");
		student_grade_free(&back);
		free(path);
		strbuf_free(&json);
	}
	remove_test_folder(root);
	free(root);
	strbuf_free(&csv);
	student_grade_free(&g[0]);
	student_grade_free(&g[1]);
}
END_TEST

Suite *gradereport_suite(void)
{
	Suite *s = suite_create("gradereport");
	TCase *tc = tcase_create("gradereport");
	tcase_add_test(tc, test_hidden_check_shows_no_detail);
	tcase_add_test(tc, test_class_table_quotes_what_it_must);
	tcase_add_test(tc, test_notes_of_the_grader_own_are_kept);
	suite_add_tcase(s, tc);
	return s;
}
