/* catalogue.h - the catalogue page: every case with the fact it shows and its verdicts on
 * Oclgrind and on each real device, from recorded results, as Markdown. */
#ifndef CLH_CATALOGUE_H
#define CLH_CATALOGUE_H

#include <stddef.h>

#include "case/testcase.h"
#include "results/resultfile.h"

/* Where a set of results came from, for the page's header. */
struct catalogue_source {
	const char *label; /* the results file as the page names it */
	const struct recorded_list *results;
};

struct catalogue_counts {
	size_t cases;
	size_t topics;
	size_t buggy;	      /* cases with an error Oclgrind found */
	size_t right_on_pocl; /* of those, cases whose every PoCL run gave the right output */
};

/* The page, Markdown, one table per topic in name order: case (linked to its file from
 * doc/), its about line, what the simulator found, and each device's verdicts. A buggy
 * case whose every run on a device gave the right output says so in its line, since
 * output comparison alone would pass it there. Caller frees; counts may be NULL. */
char *catalogue_markdown(struct test_case *const *cases, size_t ncases,
			 const struct catalogue_source *sources, size_t nsources,
			 struct catalogue_counts *counts);

#endif
