/* result.c - verdict names and expectations of results. */
#include "config.h"

#include "results/result.h"

#include "case/ulps.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

size_t kept_buffer_diff(const struct kept_buffer *a, const struct kept_buffer *b, double ulps,
			struct kept_difference *d)
{
	*d = (struct kept_difference){ 0 };
	unsigned stride = elem_stride(a->lanes);
	for (size_t i = 0; i < a->count && i < b->count; i++) {
		if (elem_is_padding(a->lanes, i))
			continue;
		d->compared++;
		double u = elem_get(a->type, a->data, i), v = elem_get(b->type, b->data, i);
		bool same = elem_is_float(a->type) ? within_ulps(a->type, u, v, ulps)
						   : elem_get_bits(a->type, a->data, i) ==
							     elem_get_bits(b->type, b->data, i);
		if (same)
			continue;
		if (d->differ++ == 0) {
			d->element = i / stride;
			d->lane = (unsigned)(i % stride);
			d->a = u;
			d->b = v;
			d->ulps = elem_is_float(a->type) ? ulps_apart(a->type, u, v) : 0;
		}
	}
	return d->differ;
}

char *kept_difference_place(const struct kept_buffer *k, const struct kept_difference *d)
{
	if (k->lanes > 1)
		return xasprintf("%s[%zu].s%x", k->name, d->element, d->lane);
	return xasprintf("%s[%zu]", k->name, d->element);
}

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[VERDICT_PASS] = "pass",
		[VERDICT_WRONG_OUTPUT] = "wrong-output",
		[VERDICT_RACE] = "race",
		[VERDICT_DIVERGENCE] = "barrier-divergence",
		[VERDICT_OUT_OF_BOUNDS] = "out-of-bounds",
		[VERDICT_UNINITIALIZED] = "uninitialized",
		[VERDICT_BUILD_ERROR] = "build-error",
		[VERDICT_CASE_ERROR] = "case-error",
		[VERDICT_TIMEOUT] = "timeout",
		[VERDICT_CRASH] = "crash",
		[VERDICT_INCOMPLETE] = "incomplete",
		[VERDICT_SKIP] = "skip",
	};
	return names[v];
}

bool verdict_from_name(const char *name, enum verdict *v)
{
	for (int k = VERDICT_PASS; name && k <= VERDICT_SKIP; k++)
		if (strcmp(verdict_name((enum verdict)k), name) == 0) {
			*v = (enum verdict)k;
			return true;
		}
	return false;
}

bool result_cut_short(const struct result *r)
{
	for (size_t i = 0; i < r->findings.count; i++)
		if (r->findings.items[i].kind == FINDING_TRUNCATED)
			return true;
	return r->verdict == VERDICT_INCOMPLETE;
}

bool result_expected(const struct result *r)
{
	if (result_cut_short(r))
		return false;
	if (r->expect != EXPECT_BY_VERDICT)
		return r->expect == EXPECT_MET;
	switch (r->verdict) {
	case VERDICT_PASS:
	case VERDICT_SKIP:
		return true;
	case VERDICT_WRONG_OUTPUT:
	case VERDICT_RACE:
	case VERDICT_DIVERGENCE:
	case VERDICT_OUT_OF_BOUNDS:
	case VERDICT_UNINITIALIZED:
		return r->racy;
	default:
		return false;
	}
}

/* The verdict an error finding gives its run. */
static enum verdict finding_verdict(enum finding_kind kind)
{
	switch (kind) {
	case FINDING_RACE:
		return VERDICT_RACE;
	case FINDING_DIVERGENCE:
		return VERDICT_DIVERGENCE;
	case FINDING_OUT_OF_BOUNDS:
		return VERDICT_OUT_OF_BOUNDS;
	case FINDING_UNINITIALIZED:
		return VERDICT_UNINITIALIZED;
	case FINDING_ASYNC_COPY:
		return VERDICT_RACE; /* a copy never waited for is ordered with nothing */
	case FINDING_API_ERROR:
		return VERDICT_CASE_ERROR; /* the run called OpenCL in a way it refuses */
	case FINDING_SIMULATOR_ERROR:
		return VERDICT_CRASH; /* the simulator stopped the kernel */
	case FINDING_TRUNCATED:
		return VERDICT_INCOMPLETE;
	case FINDING_OTHER:
		break;
	}
	return VERDICT_PASS;
}

void result_settle(struct result *r)
{
	r->output = r->verdict;
	if (r->verdict != VERDICT_PASS && r->verdict != VERDICT_WRONG_OUTPUT)
		return;
	enum verdict worst = r->verdict;
	bool cut_short = false;
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		enum verdict v = f->severity == DIAG_ERROR && !f->suppressed
					 ? finding_verdict(f->kind)
					 : VERDICT_PASS;
		if (v == VERDICT_INCOMPLETE) {
			cut_short = true;
			continue;
		}
		if (v != VERDICT_PASS &&
		    (worst == VERDICT_PASS || worst == VERDICT_WRONG_OUTPUT || v < worst))
			worst = v;
	}
	/* What was seen stands (a wrong output, a race); only where nothing was is the
	 * verdict that the run is incomplete, never a pass. */
	r->verdict = worst == VERDICT_PASS && cut_short ? VERDICT_INCOMPLETE : worst;
}

void result_set_diag(struct result *r, enum verdict v, const char *file, int line, int col,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(r->message);
	r->message = xvasprintf(fmt, ap);
	va_end(ap);
	free(r->file);
	r->file = file ? xstrdup(file) : NULL;
	r->line = line;
	r->col = col;
	r->verdict = v;
}

void result_cut(struct result *r)
{
	text_cut(&r->message, RESULT_MESSAGE_MAX, "message");
	text_cut(&r->detail, RESULT_DETAIL_MAX, "log");
}

void result_set_mismatch(struct result *r, const char *buffer, size_t index, double got,
			 double want, double bound, size_t mismatches, size_t compared)
{
	free(r->buffer);
	r->buffer = xstrdup(buffer);
	r->index = index;
	r->got = got;
	r->want = want;
	r->bound = bound;
	r->mismatches = mismatches;
	r->compared = compared;
}

void result_free_kept(struct result *r)
{
	for (size_t i = 0; i < r->nkept; i++) {
		free(r->kept[i].name);
		free(r->kept[i].data);
	}
	free(r->kept);
	r->kept = NULL;
	r->nkept = 0;
}

void chosen_values_free(struct chosen_value *values, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(values[i].name);
		free(values[i].value);
		free(values[i].why);
		free(values[i].override);
	}
	free(values);
}

void result_free(struct result *r)
{
	free(r->case_name);
	free(r->case_path);
	free(r->target);
	free(r->backend);
	free(r->file);
	free(r->message);
	free(r->detail);
	free(r->printed);
	free(r->remark);
	free(r->buffer);
	free(r->expect_diff);
	finding_list_free(&r->findings);
	result_free_kept(r);
	*r = (struct result){ 0 };
}

/* A verdict that leaves nothing to judge. */
static bool gave_nothing(const struct result *r)
{
	return r->verdict == VERDICT_BUILD_ERROR || r->verdict == VERDICT_CASE_ERROR ||
	       r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_CRASH;
}

bool result_ran_to_end(const struct result *r)
{
	return r->verdict != VERDICT_SKIP && !result_cut_short(r) && !gave_nothing(r);
}

void run_tally_take(struct run_tally *t, const struct result *r)
{
	if (r->verdict == VERDICT_SKIP)
		t->skipped++;
	else if (result_cut_short(r))
		t->cut_short++;
	else if (gave_nothing(r))
		t->failed++;
	else
		t->ran++;
}

void run_tally_text(struct strbuf *out, const struct run_tally *t, const char *runs)
{
	size_t all = t->ran + t->cut_short + t->failed + t->skipped;
	strbuf_printf(out, "%zu of %zu %s ran to the end", t->ran, all, runs);
	const char *sep = " (";
	if (t->skipped) {
		strbuf_printf(out, "%s%zu skipped", sep, t->skipped);
		sep = ", ";
	}
	if (t->cut_short) {
		strbuf_printf(out, "%s%zu cut short", sep, t->cut_short);
		sep = ", ";
	}
	if (t->failed) {
		strbuf_printf(out, "%s%zu failed: timeout, crash or build error", sep, t->failed);
		sep = ", ";
	}
	if (*sep == ',')
		strbuf_puts(out, ")");
}

int run_tally_status(const struct run_tally *t)
{
	if (t->ran > 0)
		return 0;
	return t->skipped > 0 && t->cut_short == 0 && t->failed == 0 ? EXIT_SKIP : 1;
}

bool run_tally_unchecked(struct strbuf *out, const struct run_tally *t, const char *run)
{
	int status = run_tally_status(t);
	if (status == 0)
		return false;
	if (status == EXIT_SKIP)
		strbuf_printf(out, "every %s was a skip", run);
	else
		strbuf_printf(out, "no %s ran to its end", run);
	return true;
}
