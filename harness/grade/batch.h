/* batch.h - grades a class: every submission in a child process of its own, `jobs` at a
 * time, each writing its student's reports; the parent gathers every score, so a grader
 * that dies still leaves its student a score and the batch always finishes. */
#ifndef CLH_BATCH_H
#define CLH_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "grade/assignment.h"
#include "grade/grade.h"
#include "grade/submission.h"

struct batch_options {
	const struct assignment *assignment;
	const struct grade_options *grade;
	const char *out_dir; /* <student>.txt and <student>.json go here */
	unsigned jobs;
	bool colour; /* in the text reports printed to a terminal; the files have none */
	/* Takes a student's grade from the report an earlier grading left in out_dir, where
	 * there is a whole one for this assignment, instead of grading again. */
	bool resume;
	/* Called in the parent as each student's grade arrives, in the order they finish;
	 * `resumed` when it came from an earlier report. */
	void (*progress)(void *ctx, const struct student_grade *g, double seconds, bool resumed);
	/* Called in the parent about every quarter second while graders run, where set:
	 * students finished, of all, and the one started last. */
	void (*tick)(void *ctx, size_t done, size_t total, const char *current);
	void *ctx;
};

/* Grades subs[i] into grades[i] (points per check, total and the blocker; diagnostics
 * stay in the reports). After a termination signal (interrupt.h) it starts no grader and
 * ends the running ones: the grades of students not finished stay as they were (zeroed,
 * student NULL), and their reports are not written. Returns the number of students whose
 * reports could not be written. */
size_t batch_grade(const struct batch_options *bo, const struct submission *subs, size_t n,
		   struct student_grade *grades);

#endif
