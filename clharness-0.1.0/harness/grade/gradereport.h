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

/* The student's report: points per check, then each visible check's diagnostics at the
 * submission's lines with a caret under the column. */
void grade_report_text(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g, bool colour);
/* The same as one JSON object on one line. */
void grade_report_json(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g);

/* The class, one row a student in the order given: student, points per check, total. */
void grade_table_csv(struct strbuf *out, const struct assignment *a,
		     const struct student_grade *grades, size_t n);
void grade_table_markdown(struct strbuf *out, const struct assignment *a,
			  const struct student_grade *grades, size_t n);

#endif
