/* compare.c - compares a buffer the device wrote with its CPU reference, lane by lane. */
#include "config.h"

#include "case/compare.h"

#include <math.h>
#include <stdlib.h>

#include "base/parallel.h"
#include "base/util.h"

double cmp_gamma(double k, double u)
{
	double ku = k * u;
	return ku >= 1 ? INFINITY : ku / (1 - ku);
}

double cmp_bound(enum tolerance tol, long long depth, double want, double magnitude, size_t terms,
		 double u)
{
	switch (tol) {
	case TOL_EXACT:
		return 0;
	case TOL_REDUCTION:
		return cmp_gamma((double)depth, u) * magnitude + u * fabs(want);
	case TOL_UNORDERED:
		return cmp_gamma(terms > 0 ? (double)(terms - 1) : 0, u) * magnitude +
		       u * fabs(want);
	}
	return 0;
}

/* One piece of a comparison: scalars [first, last) of the buffer. */
struct cmp_piece {
	const struct ref_output *ref;
	const void *got;
	size_t count;
	enum tolerance tol;
	long long depth;
	struct cmp_report *reports; /* one a piece */
};

static void compare_piece(void *ctx, size_t piece)
{
	const struct cmp_piece *job = ctx;
	const struct ref_output *ref = job->ref;
	struct cmp_report report = { .ok = true };
	bool is_float = elem_is_float(ref->type);
	bool rounding = is_float && job->tol != TOL_EXACT;
	double u = elem_unit_roundoff(ref->type);
	size_t first = piece * PARALLEL_GRAIN;
	for (size_t i = first; i < first + PARALLEL_GRAIN && i < job->count; i++) {
		if (elem_is_padding(ref->lanes, i))
			continue;
		report.compared++;
		double g = elem_get(ref->type, job->got, i);
		double w = ref->want[i];
		double bound = 0;
		bool match;
		if (rounding) {
			double error = fabs(g - w);
			bound = cmp_bound(job->tol, job->depth, w, ref->magnitude[i], ref->terms[i],
					  u);
			match = error <= bound; /* false for NaN */
			if (match && bound > 0 && error / bound > report.worst_ratio)
				report.worst_ratio = error / bound;
		} else if (is_float) {
			match = g == w;
		} else {
			match = elem_get_bits(ref->type, job->got, i) == ref->want_bits[i];
		}
		if (match)
			continue;
		if (report.mismatches++ == 0) {
			report.ok = false;
			report.first = i;
			report.got = g;
			report.want = w;
			report.bound = bound;
		}
	}
	job->reports[piece] = report;
}

void cmp_buffer(const struct ref_output *ref, const void *got, size_t count, enum tolerance tol,
		long long depth, struct cmp_report *report)
{
	size_t pieces = parallel_pieces(count);
	struct cmp_piece job = { .ref = ref,
				 .got = got,
				 .count = count,
				 .tol = tol,
				 .depth = depth,
				 .reports = xcalloc(pieces, sizeof *job.reports) };
	parallel_for(pieces, compare_piece, &job);
	/* In order: the first mismatch is the first piece's that has one. */
	*report = (struct cmp_report){ .ok = true };
	for (size_t p = 0; p < pieces; p++) {
		const struct cmp_report *r = &job.reports[p];
		report->compared += r->compared;
		if (r->worst_ratio > report->worst_ratio)
			report->worst_ratio = r->worst_ratio;
		if (r->mismatches > 0 && report->mismatches == 0) {
			report->ok = false;
			report->first = r->first;
			report->got = r->got;
			report->want = r->want;
			report->bound = r->bound;
		}
		report->mismatches += r->mismatches;
	}
	free(job.reports);
}
