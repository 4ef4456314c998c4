/* graded.h - the mutants of an assignment's reference solution, graded as students: each
 * mutant handed in beside the unmutated solution, graded against the assignment's checks,
 * and judged by the points it kept. */
#ifndef CLH_GRADED_H
#define CLH_GRADED_H

#include <stddef.h>

#include "base/diag.h"
#include "grade/assignment.h"
#include "mutate/mutate.h"

/* Finds every mutant of `ops` in the assignment's reference solution (the kernel file of
 * the first check's case whose kernel the assignment declares), in the kernels its cases
 * run and the functions they call; s->checks names the assignment's checks. Returns 0,
 * with the solution's path in *solution (caller frees); -1 with why in diags. */
int graded_mutants_find(const struct assignment *a, unsigned ops, struct mutant_set *s,
			char **solution, struct diag_list *diags);

/* How the mutants are graded. */
struct graded_judging {
	const char *device_pattern; /* NULL: the first device */
	unsigned timeout_s;	    /* a run's limit; 0: the assignment's, as grading derives */
	unsigned jobs;		    /* mutants graded side by side */
	double kill_below; /* killed only where a mutant keeps less of the points than this */
};

/* Grades the unmutated solution and each mutant of its own text as students of a
 * temporary class, and judges each mutant from its grade beside the solution's: caught
 * by every check where it earned less (speed checks are not asked, since a timing's noise
 * would read as a catch), killed only where it kept less than kill_below of the
 * solution's points, else a survivor that lost some (a weak catch, its points in `by`).
 * Mutants of one text share a fate. Returns 0, with the calibration's warning in
 * *warning (NULL: none; caller frees); -1 with *cause (caller frees) where grading cannot
 * start or the solution fails its own checks. After a termination signal the mutants not
 * graded stay FATE_UNJUDGED. */
int graded_mutants_judge(const struct assignment *a, struct mutant_set *s,
			 const struct graded_judging *j, char **warning, char **cause);

#endif
