/* resultfile.h - reads back the results `clharness run --json` wrote, one JSON object a
 * line, so results from several machines can be put side by side (the catalogue page). */
#ifndef CLH_RESULTFILE_H
#define CLH_RESULTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/* One finding as a result file records it. */
struct recorded_finding {
	char *severity; /* error, warning */
	char *kind;	/* race, barrier-divergence, out-of-bounds, uninitialized, ... */
	char *what;	/* read-write, write-write, read, write, ... */
	char *space;	/* local, global, private, ... ; may be NULL */
	int line;
	int other_line; /* the other access of a race; 0 when there is none */
};

/* One result: a case on one target at one shape. */
struct recorded_result {
	char *case_name; /* topic/name */
	char *target;	 /* pocl-cpu, oclgrind, nvidia-h100, ... */
	bool simulated;	 /* from a simulator backend */
	char *verdict;
	char *output; /* the output comparison's verdict */
	char *shape;  /* "N=1024x768 L=16x16"; NULL in results older than shapes */
	struct recorded_finding *findings;
	size_t nfindings;
};

struct recorded_list {
	struct recorded_result *items;
	size_t count;
};

/* Appends the results of the JSON Lines file at `path` to `list`. A line that is not a
 * result object is reported in diags as path:line:col and skipped; blank lines are
 * ignored. Returns 0, or -1 with an error in diags when the file cannot be read. */
int resultfile_read(const char *path, struct recorded_list *list, struct diag_list *diags);
/* resultfile_read of `text`, the file's contents (cut into lines in place), named `path`
 * in diagnostics. */
void resultfile_parse(const char *path, char *text, struct recorded_list *list,
		      struct diag_list *diags);
void recorded_list_free(struct recorded_list *list);

#endif
