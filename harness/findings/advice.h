/* advice.h - where the fix of a finding goes, in a sentence a student can act on, at the
 * source line it names: the barrier a race within a work-group needs and its fence, the
 * fence flag a barrier lacks, the second launch or atomic that orders work-groups, the
 * atomic for a lost update, the condition that takes a barrier away from some items. */
#ifndef CLH_ADVICE_H
#define CLH_ADVICE_H

#include <stdbool.h>

#include "findings/finding.h"

struct advice {
	int line; /* where the fix goes; 0: at the finding's own line */
	int col;
	char *text; /* "fix: ..." */
};

/* The advice for f in a kernel whose source text is `source` (NULL when it cannot be
 * read: the advice then rests on the finding alone). Returns false, with nothing to
 * free, for findings that have none (a simulator's own error, an API error). */
bool advice_for(const struct finding *f, const char *source, struct advice *a);
/* advice_for with the source read from `file`, the kernel's own (NULL: none). */
bool advice_for_file(const struct finding *f, const char *file, struct advice *a);
void advice_free(struct advice *a);

#endif
