/* crosscheck.c - outputs compared with other runs' copies where a case has no CPU
 * reference: the other targets' (reference: targets) or a reference kernel's. */
#include "config.h"

#include "results/crosscheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct crosscheck_entry {
	char *key; /* case file and shape: the runs that must agree */
	char *target;
	bool reference; /* a reference kernel's run, not a target's run of the case */
	struct kept_buffer *kept;
	size_t nkept;
};

/* The check of a kept buffer: "out", or "out.field" of a buffer of structs. */
static const struct check *check_of(const struct test_case *tc, const char *buffer)
{
	size_t len = strcspn(buffer, ".");
	for (size_t c = 0; c < tc->nchecks; c++) {
		const char *name = tc->buffers[tc->checks[c].buffer].name;
		if (check_compared_later(&tc->checks[c]) && strlen(name) == len &&
		    strncmp(name, buffer, len) == 0)
			return &tc->checks[c];
	}
	return NULL;
}

static const struct kept_buffer *kept_named(const struct crosscheck_entry *e, const char *name)
{
	for (size_t i = 0; e && i < e->nkept; i++)
		if (strcmp(e->kept[i].name, name) == 0)
			return &e->kept[i];
	return NULL;
}

/* Marks r's output wrong at its first difference with `theirs`, once a run. */
static void mark_difference(struct result *r, const struct check *ck,
			    const struct kept_buffer *mine, const struct crosscheck_entry *e,
			    const struct ulp_bound *bound, const struct kept_difference *d)
{
	if (r->output == VERDICT_WRONG_OUTPUT)
		return; /* the first difference of a run is its headline */
	r->output = VERDICT_WRONG_OUTPUT;
	char *place = kept_difference_place(mine, d);
	char text[SHAPE_RUN_TEXT_MAX];
	shape_run_text(&r->n, &r->l, " ", text);
	char *source = e->reference
			       ? xasprintf("the reference kernel %s on %s",
					   ck->ref_step ? ck->ref_step->kernel_name : "", e->target)
			       : xasprintf("%s", e->target);
	/* How far apart the floats are against what the kernel's built-ins let them be. */
	char apart[224] = "";
	if (elem_is_float(mine->type) && bound->ulps > 0)
		snprintf(apart, sizeof apart, ", %.3g ulp apart where its built-ins allow %g (%s)",
			 d->ulps, bound->ulps, bound->why);
	else if (elem_is_float(mine->type))
		snprintf(apart, sizeof apart,
			 ", %.3g ulp apart where it calls no built-in with an error, so the "
			 "targets must agree exactly",
			 d->ulps);
	if (r->verdict == VERDICT_PASS) {
		result_set_diag(
			r, VERDICT_WRONG_OUTPUT, r->case_path, ck->pos.line, ck->pos.col,
			"%s: got %.*g, want %.*g as %s left it%s; %zu of %zu %s differ (at %s)",
			place, digits_to_differ(d->a, d->b), d->a, digits_to_differ(d->a, d->b),
			d->b, source, apart, d->differ, d->compared,
			mine->lanes > 1 ? "lanes" : "elements", text);
		result_set_mismatch(r, mine->name, d->element, d->a, d->b, 0, d->differ,
				    d->compared);
	}
	free(source);
	free(place);
}

/* Whether r ran the one launch the check's recorded output, the application's own, is of. */
static bool at_recorded(const struct check *ck, const struct result *r)
{
	return ck->recorded && shape_equal(&ck->at_n, &r->n) && shape_equal(&ck->at_l, &r->l);
}

/* Where the application's own output was recorded at this launch, it is the third voice:
 * a run that agrees with it passes; one that does not is the odd one out where the first
 * target agrees with the application, or its agreement with the first target makes the
 * application's output the odd one out, which is said and fails nothing; all three
 * differing, or no target yet to side with either, is a wrong output saying so. */
static void judge_by_recorded(struct result *r, const struct test_case *tc,
			      const struct check *ck, const struct kept_buffer *mine,
			      const struct kept_buffer *theirs, const struct crosscheck_entry *e)
{
	const struct ulp_bound *bound = &tc->float_ulps;
	struct kept_buffer recorded = { .name = mine->name,
					.type = ck->expected.type,
					.lanes = mine->lanes,
					.count = ck->expected.count,
					.data = ck->expected.data };
	struct kept_difference d;
	if (kept_buffer_diff(mine, &recorded, bound->ulps, &d) == 0)
		return;
	struct kept_difference dt;
	bool with_first = theirs && kept_buffer_diff(mine, theirs, bound->ulps, &dt) == 0;
	struct kept_difference df;
	bool first_with_app = theirs && kept_buffer_diff(theirs, &recorded, bound->ulps, &df) == 0;
	char *place = kept_difference_place(mine, &d);
	int digits = digits_to_differ(d.a, d.b);
	char apart[96] = "";
	if (elem_is_float(mine->type))
		snprintf(apart, sizeof apart, ", %.3g ulp apart where %g are allowed", d.ulps,
			 bound->ulps);
	if (with_first) {
		free(r->remark);
		r->remark = xasprintf("the application's recorded output (%s) is the odd one out: "
				      "%s and %s agree, and %s is %.*g here but %.*g as the "
				      "application's device left it%s",
				      ck->expected_file, r->target, e->target, place, digits, d.a,
				      digits, d.b, apart);
	} else if (r->verdict == VERDICT_PASS) {
		char *who = first_with_app
				    ? xasprintf("the odd one out: %s and the application's device "
						"agree",
						e->target)
			    : theirs ? xasprintf("one of three that all differ, with the "
						 "application's device and %s",
						 e->target)
				     : xstrdup("at odds with the application's device, and no "
					       "other target has run it yet to say which is right");
		result_set_diag(r, VERDICT_WRONG_OUTPUT, r->case_path, ck->pos.line, ck->pos.col,
				"%s: got %.*g, want %.*g as the application's device left it (%s)%s; "
				"%s is %s; %zu of %zu %s differ",
				place, digits, d.a, digits, d.b, ck->expected_file, apart, r->target,
				who, d.differ, d.compared, mine->lanes > 1 ? "lanes" : "elements");
		result_set_mismatch(r, mine->name, d.element, d.a, d.b, 0, d.differ, d.compared);
		r->output = VERDICT_WRONG_OUTPUT;
		free(who);
	}
	free(place);
}

/* Compares r's kept outputs with the other targets' (e: the first to run this shape) or
 * the reference kernel's (ref). */
static void compare(const struct crosscheck_entry *e, const struct crosscheck_entry *ref,
		    const struct test_case *tc, struct result *r)
{
	for (size_t i = 0; i < r->nkept; i++) {
		const struct kept_buffer *mine = &r->kept[i];
		const struct check *ck = check_of(tc, mine->name);
		if (ck == NULL)
			continue;
		const struct crosscheck_entry *against = ck->ref->kind == REF_KERNEL ? ref : e;
		const struct kept_buffer *theirs = kept_named(against, mine->name);
		struct kept_difference d;
		if (ck->ref->kind == REF_KERNEL && theirs == NULL) {
			if (r->verdict == VERDICT_PASS) {
				char text[SHAPE_RUN_TEXT_MAX];
				result_set_diag(
					r, VERDICT_SKIP, r->case_path, ck->pos.line, ck->pos.col,
					"no reference for %s: the reference kernel %s did not "
					"run on a CPU device at %s",
					mine->name, ck->ref_step ? ck->ref_step->kernel_name : "",
					shape_run_text(&r->n, &r->l, " ", text));
				r->output = VERDICT_SKIP;
			}
			continue;
		}
		if (ck->ref->kind == REF_TARGETS && at_recorded(ck, r) && !strchr(mine->name, '.')) {
			judge_by_recorded(r, tc, ck, mine, theirs, against);
			continue;
		}
		if (theirs && kept_buffer_diff(mine, theirs, tc->float_ulps.ulps, &d) > 0)
			mark_difference(r, ck, mine, against, &tc->float_ulps, &d);
	}
}

static struct crosscheck_entry *find(struct crosscheck *x, const char *key, bool reference)
{
	for (size_t i = 0; i < x->count; i++)
		if (x->entries[i].reference == reference && strcmp(x->entries[i].key, key) == 0)
			return &x->entries[i];
	return NULL;
}

void crosscheck_take(struct crosscheck *x, const struct test_case *tc, struct result *r)
{
	if (r->n.dims == 0)
		return;
	char text[SHAPE_RUN_TEXT_MAX];
	char *key = xasprintf("%s %s", r->case_path, shape_run_text(&r->n, &r->l, " ", text));
	struct crosscheck_entry *first = find(x, key, tc->reference_run);
	if (!tc->reference_run)
		compare(first, find(x, key, true), tc, r);
	if (first != NULL || r->nkept == 0) {
		free(key);
		result_free_kept(r);
		return;
	}
	x->entries = xreallocarray(x->entries, x->count + 1, sizeof *x->entries);
	x->entries[x->count++] = (struct crosscheck_entry){ .key = key,
							    .target = xstrdup(r->target),
							    .reference = tc->reference_run,
							    .kept = r->kept,
							    .nkept = r->nkept };
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
