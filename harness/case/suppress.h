/* suppress.h - suppressions: findings a case or a project means to have (an intended
 * benign race, a known bug kept for teaching), matched by kernel, kind, memory space and
 * lines. A suppressed finding is still counted and listed, as suppressed; a suppression
 * that matches nothing is worth a warning. */
#ifndef CLH_SUPPRESS_H
#define CLH_SUPPRESS_H

#include <stddef.h>

#include "base/diag.h"
#include "case/yamlread.h"

struct fy_node;

struct suppression {
	char *kernel; /* NULL: any kernel */
	char *kind;   /* a finding kind: race, barrier-divergence, out-of-bounds, uninitialized */
	char *space;  /* NULL: any memory space */
	int lines[2]; /* 0: any; a finding's own line and the other one, in either order */
	char *why;    /* NULL: no reason given */
	char *file;   /* where it is written, for messages */
	struct src_pos pos;
};

struct suppression_list {
	struct suppression *items;
	size_t count;
};

/* Reads a list of suppressions, each {kind: race, kernel: K, space: local, lines: [14,
 * 12], why: ...} (kind required), into out; each mistake is reported through r. */
void suppressions_parse(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
			struct suppression_list *out);
/* A suppressions file: such a list as its whole document. Returns -1 with every mistake
 * in diags as file:line:col. */
int suppressions_load(const char *path, struct suppression_list *out, struct diag_list *diags);
void suppression_list_free(struct suppression_list *list);

/* "race on local memory at lines 14 and 12 in kernel reduce_sum", for messages. */
char *suppression_text(const struct suppression *s);

#endif
