/* uniform.h - which expressions of a function have one value across the work-items of a
 * group that evaluate them: built of constants, the group's sizes and ids, a kernel's
 * scalar parameters, and variables every write of which is such an expression made
 * where all the group's items still there make it. A branch on such a condition cannot
 * send a group's items different ways, so racecheck need not compare it between them.
 * Memory is never uniform here: another item may have written it. Only built with
 * libclang (HAVE_LIBCLANG). */
#ifndef CLH_UNIFORM_H
#define CLH_UNIFORM_H

#include <stdbool.h>

#include "source/srctree.h"

struct uniform;

/* The analysis of the function whose tree is `root` (its parameters and body among its
 * kids); a kernel's parameters are uniform, a helper's are not (its callers are not
 * known). */
struct uniform *uniform_analyse(const struct srctext *text, struct node *root, bool kernel);

/* Whether expression n has one value across the group's items that evaluate it. */
bool uniform_expr(const struct uniform *u, struct node *n);

void uniform_free(struct uniform *u);

#endif
