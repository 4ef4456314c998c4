/* findagree.c - the errors two finding backends report at one launch, compared. */
#include "config.h"

#include "results/findagree.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct findagree_entry {
	char *case_path, *case_name; /* a check's case names carry the input set */
	struct shape n, l;
	char *backend, *target;
	struct finding_list errors;
};

/* The kinds every finding backend looks for; the others (uninitialised values, API
 * errors) are one backend's alone, and their absence elsewhere says nothing. */
static bool compared_kind(const struct finding *f)
{
	return f->severity == DIAG_ERROR && !f->suppressed &&
	       (f->kind == FINDING_RACE || f->kind == FINDING_DIVERGENCE ||
		f->kind == FINDING_OUT_OF_BOUNDS);
}

/* f as the simulator names its place: it holds a __constant argument in global memory,
 * and reports it there (racecheck's constant memory is only such arguments). */
static struct finding as_simulated(const struct finding *f)
{
	struct finding g = *f;
	if (g.space && strcmp(g.space, "constant") == 0)
		g.space = (char *)"global";
	return g;
}

static bool listed(const struct finding_list *list, const struct finding *f)
{
	struct finding mine = as_simulated(f);
	for (size_t i = 0; i < list->count; i++) {
		struct finding theirs = as_simulated(&list->items[i]);
		if (finding_same_place(&mine, &theirs) || finding_same_place(&theirs, &mine))
			return true;
	}
	return false;
}

/* Says in out what `who` reports of `mine` that `theirs` lacks; returns how many. */
static size_t say_missing(struct strbuf *out, const char *who, const char *other,
			  const struct finding_list *mine, const struct finding_list *theirs)
{
	size_t n = 0;
	for (size_t i = 0; i < mine->count; i++) {
		const struct finding *f = &mine->items[i];
		if (!compared_kind(f) || listed(theirs, f))
			continue;
		const char *space = f->space ? f->space : "some";
		strbuf_printf(out, "%s%s reports ", out->len ? "; " : "", who);
		if (f->kind == FINDING_RACE)
			strbuf_printf(out, "a %s data race on %s memory", f->what ? f->what : "",
				      space);
		else if (f->kind == FINDING_OUT_OF_BOUNDS)
			strbuf_printf(out, "an out-of-bounds access of %s memory", space);
		else
			strbuf_puts(out, "barrier divergence");
		strbuf_printf(out, " at line %d that %s does not", f->at.line, other);
		n++;
	}
	return n;
}

void findagree_take(struct findagree *fa, struct result *r)
{
	if (!r->simulated || !result_ran_to_end(r) || r->case_path == NULL ||
	    r->case_name == NULL || r->backend == NULL)
		return;
	struct finding_list errors = { 0 };
	for (size_t i = 0; i < r->findings.count; i++)
		if (compared_kind(&r->findings.items[i]))
			finding_list_settle(&errors, &r->findings.items[i]);
	struct strbuf said = { 0 };
	for (size_t e = 0; e < fa->count; e++) {
		const struct findagree_entry *x = &fa->entries[e];
		if (strcmp(x->backend, r->backend) == 0 ||
		    strcmp(x->case_path, r->case_path) != 0 ||
		    strcmp(x->case_name, r->case_name) != 0 || !shape_equal(&x->n, &r->n) ||
		    !shape_equal(&x->l, &r->l))
			continue;
		struct strbuf one = { 0 };
		size_t differ = say_missing(&one, x->target, r->target, &x->errors, &errors) +
				say_missing(&one, r->target, x->target, &errors, &x->errors);
		if (differ)
			strbuf_printf(&said, "%s%s and %s ran this launch and disagree: %s",
				      said.len ? "; " : "", x->target, r->target, one.data);
		strbuf_free(&one);
	}
	if (said.len) {
		char *remark =
			r->remark ? xasprintf("%s; %s", r->remark, said.data) : xstrdup(said.data);
		free(r->remark);
		r->remark = remark;
	}
	strbuf_free(&said);
	fa->entries = xreallocarray(fa->entries, fa->count + 1, sizeof *fa->entries);
	fa->entries[fa->count++] = (struct findagree_entry){ .case_path = xstrdup(r->case_path),
							     .case_name = xstrdup(r->case_name),
							     .n = r->n,
							     .l = r->l,
							     .backend = xstrdup(r->backend),
							     .target = xstrdup(r->target),
							     .errors = errors };
}

void findagree_free(struct findagree *fa)
{
	for (size_t i = 0; i < fa->count; i++) {
		free(fa->entries[i].case_path);
		free(fa->entries[i].case_name);
		free(fa->entries[i].backend);
		free(fa->entries[i].target);
		finding_list_free(&fa->entries[i].errors);
	}
	free(fa->entries);
	*fa = (struct findagree){ 0 };
}
