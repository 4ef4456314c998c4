/* findagree.h - two checkers' findings at one launch, set side by side: where targets of
 * different backends that both find (Oclgrind and a racecheck target) ran the same case
 * at the same shape, each race, barrier divergence and out-of-bounds access one reports
 * as an error and the other does not is said in a remark on the later run. A remark
 * fails nothing: the goldens judge each target's findings on their own. */
#ifndef CLH_FINDAGREE_H
#define CLH_FINDAGREE_H

#include <stddef.h>

#include "results/result.h"

struct findagree_entry;

struct findagree {
	struct findagree_entry *entries;
	size_t count;
};

/* Takes r, a run of a backend that finds (r->simulated): it is compared with the runs of
 * other backends taken before it at the same case, input set and shape, and kept for
 * those after it. A run that gave nothing to judge, or was cut short, is neither. */
void findagree_take(struct findagree *fa, struct result *r);
void findagree_free(struct findagree *fa);

#endif
