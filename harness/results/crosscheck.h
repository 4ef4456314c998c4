/* crosscheck.h - reference: targets: outputs that no CPU reference checks, compared between
 * every target that ran the same case at the same shape. The first target to run a shape
 * stands as the reference of the ones after it. */
#ifndef CLH_CROSSCHECK_H
#define CLH_CROSSCHECK_H

#include <stddef.h>

#include "case/testcase.h"
#include "results/result.h"

struct crosscheck_entry;

struct crosscheck {
	struct crosscheck_entry *entries;
	size_t count;
};

/* Takes r's kept outputs: the first result of its case and shape keeps them; a later one
 * is compared with them buffer by buffer, and a difference makes its output
 * wrong-output, named at the check of `tc` (the case r ran) with the buffer, the first
 * index that differs and both targets' values. r keeps no outputs afterwards. */
void crosscheck_take(struct crosscheck *x, const struct test_case *tc, struct result *r);
void crosscheck_free(struct crosscheck *x);

#endif
