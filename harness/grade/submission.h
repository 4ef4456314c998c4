/* submission.h - which student handed in which kernel file: a .cl file is one student
 * (named by the file), a folder holds one student's .cl file (named by the folder) or
 * many students' .cl files and folders. */
#ifndef CLH_SUBMISSION_H
#define CLH_SUBMISSION_H

#include <stddef.h>

#include "base/diag.h"

struct submission {
	char *student;
	char *path;    /* the .cl file; NULL when the student's folder holds none */
	char *problem; /* why there is no single .cl file to grade; NULL when there is */
	/* The student's own folder, whose files the .cl file may #include; NULL for a lone
	 * .cl file, which may include none, since the files beside it are others'. */
	char *folder;
	/* A student's folder holding several .cl files: each of them, which the grader reads
	 * for the one defining the assignment's kernels (path and problem are then NULL). */
	char **files;
	size_t nfiles;
};

/* Expands the command line's submissions, in name order. A folder whose entries are
 * all .cl files and folders is a class; a folder holding one .cl file and no folders
 * is that student's. Two students of one name, or a path that cannot be read, are
 * errors in diags (returns -1); a student's folder without exactly one .cl file is a
 * submission with a problem, graded 0, so the batch still finishes. */
int submissions_collect(char *const *args, size_t nargs, struct submission **out, size_t *count,
			struct diag_list *diags);
/* The same where each argument is one student's hand-in, a file or a folder whatever it
 * holds: Gradescope's and GitHub Classroom's form, where a folder of two .cl files is one
 * student who handed in two, not a class of two. */
int submissions_collect_each(char *const *args, size_t nargs, struct submission **out,
			     size_t *count, struct diag_list *diags);
void submissions_free(struct submission *subs, size_t count);

#endif
