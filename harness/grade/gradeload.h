/* gradeload.h - reads a student's JSON report back into a grade: the report is the
 * record that merging shards, resuming a stopped grading and the JUnit report build on,
 * so what one grading wrote another can finish. */
#ifndef CLH_GRADELOAD_H
#define CLH_GRADELOAD_H

#include "grade/assignment.h"
#include "grade/grade.h"

/* Reads the report at `path` into *g, for assignment `a`: its checks must be a's, by
 * name and in order. Hidden checks come back as points and pass or fail, as the report
 * holds them. Returns 0, or -1 with why in *cause (caller frees) when the file cannot be
 * read, is no report, or belongs to another assignment. */
int grade_report_read(const char *path, const struct assignment *a, struct student_grade *g,
		      char **cause);

#endif
