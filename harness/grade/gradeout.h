/* gradeout.h - what a grading leaves beside the students' reports (the class table as
 * CSV and Markdown, a JUnit report, Gradescope's results.json), and how a class graded
 * in shards is put back together: each shard leaves a manifest of its students, and a
 * merge reads their reports into the grades one grading of the whole class gives. */
#ifndef CLH_GRADEOUT_H
#define CLH_GRADEOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/shard.h"
#include "grade/assignment.h"
#include "grade/grade.h"
#include "grade/submission.h"

struct class_outputs {
	const char *out_dir;	    /* class.csv and class.md go here */
	bool no_table;		    /* leave them out (a shard's: the merge writes them) */
	const char *junit_path;	    /* a JUnit report; NULL: none */
	const char *sarif_path;	    /* a SARIF log of the class's findings; NULL: none */
	const char *html_dir;	    /* a page a student and the class's; NULL: none */
	const char *gradescope_dir; /* results.json of the one student; NULL: none */
	double seconds;		    /* how long grading took, for Gradescope */
};

/* Writes the class outputs of grades[0..n), in that order, and puts the Markdown table in
 * *table (caller frees). Returns the number of files that could not be written, each
 * said in diags. */
size_t class_outputs_write(const struct class_outputs *o, const struct assignment *a,
			   const struct student_grade *grades, size_t n, char **table,
			   struct diag_list *diags);

/* Replaces each grade of points alone with the whole grade its report in out_dir holds
 * (diagnostics and summaries too), where that report can be read. */
void grades_from_reports(const char *out_dir, const struct assignment *a,
			 struct student_grade *grades, size_t n);

/* The manifest name of a shard: shard-K-of-N.json. Caller frees. */
char *shard_manifest_name(const struct shard *s);
/* Writes dir/shard-K-of-N.json: the assignment and the students the shard grades, in
 * order. Returns -1 with errno set on failure. */
int shard_manifest_write(const char *dir, const struct assignment *a, const struct shard *s,
			 const struct submission *subs, size_t n);

/* Reads the manifests and reports that the shards of one class left in `dirs` (a folder
 * a shard, or one folder they share) into grades in the order one grading of the whole
 * class gives, and copies each report into out_dir where it lies elsewhere. A shard
 * with no manifest, or a student of a manifest with no report, is an error in diags
 * that names it. Returns 0 with *grades and *n set, or -1. */
int grade_merge(const struct assignment *a, char *const *dirs, size_t ndirs, const char *out_dir,
		struct student_grade **grades, size_t *n, struct diag_list *diags);

#endif
