/* annotate.h - CI annotations: under GitHub Actions (GITHUB_ACTIONS=true) every error and
 * warning diagnostic is also printed as a workflow command,
 * `::error file=F,line=L,col=C,title=T::MESSAGE`, which the runner turns into an
 * annotation on that line of the pull request. */
#ifndef CLH_ANNOTATE_H
#define CLH_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"

/* Turns annotations on, to `out`, when the environment says this is GitHub Actions; the
 * calling process alone annotates (its children render reports into files and pipes).
 * Paths under GITHUB_WORKSPACE are written relative to it, as the runner wants them. */
void annotate_from_environment(FILE *out);
/* Turns annotations on to `out` (NULL: off), with paths relative to `workspace` (NULL:
 * as they are). */
void annotate_to(FILE *out, const char *workspace);
/* While `expected` is set, errors and warnings are annotated as notices: a known bug a
 * case expects (a racy kernel's race, found as its golden says) is no failure of the run,
 * and a green run's pull request must not show it as one. */
void annotate_expected(bool expected);
/* One diagnostic's workflow command, when annotations are on and it is an error or a
 * warning not annotated before. */
void annotate_diag(const char *file, int line, int col, enum diag_severity severity,
		   const char *message);
/* The workflow command of one diagnostic into `out`, escaped as the runner reads it;
 * nothing for a note. */
void annotate_format(struct strbuf *out, const char *file, int line, int col,
		     enum diag_severity severity, const char *message);

#endif
