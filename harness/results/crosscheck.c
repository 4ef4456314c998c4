/* crosscheck.c - outputs compared between targets where a case has no CPU reference. */
#include "config.h"

#include "results/crosscheck.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct crosscheck_entry {
	char *key; /* case name and shape label: the runs that must agree */
	char *target;
	struct kept_buffer *kept;
	size_t nkept;
};

static const struct check *check_of(const struct test_case *tc, const char *buffer)
{
	for (size_t c = 0; c < tc->nchecks; c++)
		if (tc->checks[c].ref->kind == REF_TARGETS &&
		    strcmp(tc->buffers[tc->checks[c].buffer].name, buffer) == 0)
			return &tc->checks[c];
	return NULL;
}

/* Compares r's outputs with the entry's; marks r at the first buffer that differs. */
static void compare(const struct crosscheck_entry *e, const struct test_case *tc, struct result *r)
{
	for (size_t i = 0; i < r->nkept; i++) {
		const struct kept_buffer *mine = &r->kept[i];
		const struct check *ck = check_of(tc, mine->name);
		for (size_t j = 0; ck && j < e->nkept; j++) {
			const struct kept_buffer *theirs = &e->kept[j];
			struct kept_difference d;
			if (strcmp(theirs->name, mine->name) != 0 ||
			    kept_buffer_diff(mine, theirs, &d) == 0)
				continue;
			if (r->output == VERDICT_WRONG_OUTPUT)
				return; /* the first difference of a run is its headline */
			r->output = VERDICT_WRONG_OUTPUT;
			char *place = kept_difference_place(mine, &d);
			char text[SHAPE_RUN_TEXT_MAX];
			char *message = xasprintf(
				"%s: %.9g on %s, %.9g on %s; %zu of %zu %s differ (reference: "
				"targets, at %s)",
				place, d.a, r->target, d.b, e->target, d.differ, d.compared,
				mine->lanes > 1 ? "lanes" : "elements",
				shape_run_text(&r->n, &r->l, " ", text));
			if (r->verdict == VERDICT_PASS) {
				result_set_diag(r, VERDICT_WRONG_OUTPUT, r->case_path, ck->pos.line,
						ck->pos.col, "%s", message);
				free(r->buffer);
				r->buffer = xstrdup(mine->name);
				r->index = d.element;
				r->got = d.a;
				r->want = d.b;
				r->mismatches = d.differ;
				r->compared = d.compared;
			}
			free(message);
			free(place);
		}
	}
}

void crosscheck_take(struct crosscheck *x, const struct test_case *tc, struct result *r)
{
	if (r->nkept == 0 || r->n.dims == 0)
		return;
	char text[SHAPE_RUN_TEXT_MAX];
	char *key = xasprintf("%s %s", r->case_name, shape_run_text(&r->n, &r->l, " ", text));
	for (size_t i = 0; i < x->count; i++) {
		if (strcmp(x->entries[i].key, key) == 0) {
			compare(&x->entries[i], tc, r);
			free(key);
			result_free_kept(r);
			return;
		}
	}
	x->entries = xreallocarray(x->entries, x->count + 1, sizeof *x->entries);
	x->entries[x->count++] = (struct crosscheck_entry){
		.key = key, .target = xstrdup(r->target), .kept = r->kept, .nkept = r->nkept
	};
	r->kept = NULL;
	r->nkept = 0;
}

void crosscheck_free(struct crosscheck *x)
{
	for (size_t i = 0; i < x->count; i++) {
		struct crosscheck_entry *e = &x->entries[i];
		free(e->key);
		free(e->target);
		for (size_t k = 0; k < e->nkept; k++) {
			free(e->kept[k].name);
			free(e->kept[k].data);
		}
		free(e->kept);
	}
	free(x->entries);
	*x = (struct crosscheck){ 0 };
}
