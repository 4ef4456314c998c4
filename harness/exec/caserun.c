/* caserun.c - loaded cases run as `clharness run` runs them (caserun.h). */
#include "config.h"

#include "exec/caserun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void case_run_open(struct case_run *cr, struct test_case *const *cases, size_t ncases,
		   struct golden_book *book, const struct suppression_list *suppressions,
		   void (*emit)(void *ctx, struct result *r), void *ctx)
{
	*cr = (struct case_run){ .cases = cases,
				 .ncases = ncases,
				 .book = book,
				 .suppressions = suppressions,
				 .emit = emit,
				 .ctx = ctx };
	cr->matched = xcalloc((suppressions ? suppressions->count : 0) + 1, sizeof *cr->matched);
	cr->case_matched = xcalloc(ncases + 1, sizeof *cr->case_matched);
	cr->case_simulated = xcalloc(ncases + 1, sizeof *cr->case_simulated);
	for (size_t i = 0; i < ncases; i++)
		cr->case_matched[i] = xcalloc(cases[i]->suppress.count + 1, sizeof **cr->case_matched);
}

/* Counts what the suppressions matched in one result. */
static void count_suppressed(struct case_run *cr, const struct result *r)
{
	for (size_t c = 0; c < cr->ncases; c++) {
		if (strcmp(cr->cases[c]->path, r->case_path) != 0)
			continue;
		cr->case_simulated[c] |= r->simulated;
		cr->simulated |= r->simulated;
		size_t global = cr->suppressions ? cr->suppressions->count : 0;
		for (size_t i = 0; i < r->findings.count; i++) {
			unsigned k = r->findings.items[i].suppressed;
			if (k == 0)
				continue;
			if (k <= global)
				cr->matched[k - 1]++;
			else if (k - 1 - global < cr->cases[c]->suppress.count)
				cr->case_matched[c][k - 1 - global]++;
		}
		return;
	}
}

static void take_result(void *ctx, struct result *r)
{
	struct case_run *cr = ctx;
	/* Outputs compared between targets first: a difference is a verdict for the golden. */
	for (size_t i = 0; i < cr->ncases && r->nkept > 0; i++)
		if (strcmp(cr->cases[i]->path, r->case_path) == 0)
			crosscheck_take(&cr->cross, cr->cases[i], r);
	count_suppressed(cr, r);
	golden_book_take(cr->book, r);
	cr->emit(cr->ctx, r);
}

/* A reference kernel's run: its outputs kept for the case's runs; handed on only when it
 * gave none, since then the case has nothing to be compared with. */
static void take_reference(void *ctx, struct result *r)
{
	struct case_run *cr = ctx;
	for (size_t i = 0; i < cr->nrefs; i++)
		if (strcmp(cr->refs[i]->path, r->case_path) == 0)
			crosscheck_take(&cr->cross, cr->refs[i], r);
	if (r->verdict != VERDICT_PASS)
		cr->emit(cr->ctx, r);
}

void case_run_references(struct case_run *cr, const struct run_options *opt, unsigned timeout_s)
{
	struct diag_list diags = { 0 };
	for (size_t i = 0; i < cr->ncases; i++) {
		struct test_case *ref = case_load_reference(cr->cases[i], &diags);
		if (ref == NULL)
			continue;
		cr->refs = xreallocarray(cr->refs, cr->nrefs + 1, sizeof *cr->refs);
		cr->refs[cr->nrefs++] = ref;
	}
	diag_list_free(&diags); /* the case itself loaded: its reference loads the same */
	if (cr->nrefs == 0)
		return;
	char *cpu[] = { "cpu" };
	struct selection sel;
	selection_open(&sel, cpu, 1, cr->refs, cr->nrefs, opt, timeout_s);
	if (sel.count > 0)
		selection_run(&sel, 0, take_reference, cr);
	selection_free(&sel);
}

void case_run_target(struct case_run *cr, struct selection *sel, size_t t)
{
	selection_run(sel, t, take_result, cr);
}

static void warn_unmatched(const struct suppression *s)
{
	char *what = suppression_text(s);
	fprintf(stderr, "%s:%d:%d: warning: this suppression matched no finding (%s)\n", s->file,
		s->pos.line, s->pos.col, what);
	free(what);
}

void case_run_finish(struct case_run *cr)
{
	golden_book_unseen(cr->book, cr->emit, cr->ctx);
	/* A suppression that matched nothing is stale or mistyped: said for those that had
	 * a simulated run to match. */
	const struct suppression_list *own = cr->suppressions;
	for (size_t i = 0; own && cr->simulated && i < own->count; i++)
		if (cr->matched[i] == 0)
			warn_unmatched(&own->items[i]);
	for (size_t c = 0; c < cr->ncases; c++)
		for (size_t i = 0; cr->case_simulated[c] && i < cr->cases[c]->suppress.count; i++)
			if (cr->case_matched[c][i] == 0)
				warn_unmatched(&cr->cases[c]->suppress.items[i]);
}

void case_run_close(struct case_run *cr)
{
	for (size_t i = 0; cr->case_matched && i < cr->ncases; i++)
		free(cr->case_matched[i]);
	free(cr->case_matched);
	free(cr->case_simulated);
	free(cr->matched);
	crosscheck_free(&cr->cross);
	for (size_t i = 0; i < cr->nrefs; i++)
		case_free(cr->refs[i]);
	free(cr->refs);
	*cr = (struct case_run){ 0 };
}
