/* includes.h - what a submission's #include directives reach: a student may include only
 * files of their own folder, never the reference kernel, the hidden checks' kernels, a
 * classmate's file or anything else on the grading machine, whose text the compiler
 * would otherwise quote back in its build log. */
#ifndef CLH_INCLUDES_H
#define CLH_INCLUDES_H

#include "base/diag.h"

/* Checks every #include of the kernel file at `path`, and of each file it includes, in
 * the preprocessor's own reading (comments, line continuations, digraph and trigraph
 * '#'): each must name a file, in quotes, below `folder`, the student's folder (NULL: a
 * lone file, which may include nothing). A file named through a macro, in angle
 * brackets, by an absolute path or one that climbs out (.., a link) is refused. Returns
 * 0, or -1 with the first refused directive in diags at its line and column. Where
 * `files` is given, a check that passes lists there the files the kernel reaches, itself
 * first, then each it includes, once (caller frees each and the array; NULL otherwise). */
int includes_check(const char *path, const char *folder, struct diag_list *diags, char ***files,
		   size_t *nfiles);

#endif
