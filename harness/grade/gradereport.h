/* gradereport.h - what grading tells a student (a text and a JSON report) and the
 * instructor (the class as CSV and as a Markdown table). Hidden checks say pass or fail
 * and their points, never why. */
#ifndef CLH_GRADEREPORT_H
#define CLH_GRADEREPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "grade/assignment.h"
#include "grade/grade.h"
#include "results/findlog.h"

/* The verdicts a class table notes beside a student's points, in the order its note names
 * them: runs that hung, crashed or were cut short, which an instructor will want to look
 * at. */
extern const enum verdict grade_noted_verdicts[];
extern const size_t grade_noted_count;

/* Whose report it is. A student's shows a hidden check as passed or failed and nothing
 * more: not its points (its share of the total, which is left out with it), its about,
 * its runs or its diagnostics. An instructor's holds every point and every reason. */
enum grade_view { GRADE_FOR_STUDENT, GRADE_FOR_INSTRUCTOR };
/* The folder, under a grading's output folder, of the instructor's text reports. */
#define GRADE_INSTRUCTOR_DIR "instructor"


/* A report: points per check, then each check's diagnostics at the submission's lines
 * with a caret under the column (for a student, the visible checks' alone). */
void grade_report_text(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g, enum grade_view view, bool colour);
/* The instructor's record as one JSON object on one line: every check whole, hidden or
 * not, which grade_report_read reads back. */
void grade_report_json(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g);

/* Gradescope's results.json for one student: the total, and a test a check with its
 * points, passed or failed, and the student's diagnostics at their lines; a hidden check
 * is shown after the grades are published and says only pass or fail. `seconds`: how
 * long grading took. */
void grade_report_gradescope(struct strbuf *out, const struct assignment *a,
			     const struct student_grade *g, double seconds);
/* JUnit XML: a test suite a student, a test case a check, failed unless it earned all
 * its points, with what the student's report says of it. */
void grade_report_junit(struct strbuf *out, const struct assignment *a,
			const struct student_grade *grades, size_t n);

/* The class, one row a student in the order given: student, points per check, total. */
void grade_table_csv(struct strbuf *out, const struct assignment *a,
		     const struct student_grade *grades, size_t n);
void grade_table_markdown(struct strbuf *out, const struct assignment *a,
			  const struct student_grade *grades, size_t n);

/* The student's report as one self-contained page a student can open: the points a
 * check, then each visible check's findings with the submission's lines shown (html.h);
 * a hidden check says only pass or fail. */
void grade_report_html(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g);
/* The class as a page: a row a student, linked to the student's page (STUDENT.html). */
void grade_table_html(struct strbuf *out, const struct assignment *a,
		      const struct student_grade *grades, size_t n);
/* The student's errors and warnings into `log`: each visible check's diagnostics, seen in
 * "student: check", or what blocked every check; a hidden check's stay out, as they do of
 * every report a student reads. */
void grade_student_findings(struct findlog *log, const struct assignment *a,
			    const struct student_grade *g);

/* Annotates (base/annotate.h, under GitHub Actions) what blocked the student's checks and
 * each visible check's errors and warnings at the student's lines; never a hidden
 * check's. */
void grade_annotate(const struct assignment *a, const struct student_grade *g);

#endif
