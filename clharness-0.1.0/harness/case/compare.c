/* compare.c - compares a buffer the device wrote with its CPU reference. */
#include "config.h"

#include "case/compare.h"

#include <math.h>

double cmp_gamma(double k)
{
	double ku = k * CMP_UNIT_ROUNDOFF;
	return ku >= 1 ? INFINITY : ku / (1 - ku);
}

double cmp_bound(enum tolerance tol, long long depth, double want, double magnitude, size_t terms)
{
	switch (tol) {
	case TOL_EXACT:
		return 0;
	case TOL_REDUCTION:
		return cmp_gamma((double)depth) * magnitude + CMP_UNIT_ROUNDOFF * fabs(want);
	case TOL_UNORDERED:
		return cmp_gamma(terms > 0 ? (double)(terms - 1) : 0) * magnitude +
		       CMP_UNIT_ROUNDOFF * fabs(want);
	}
	return 0;
}

void cmp_buffer(const struct ref_output *ref, const void *got, size_t count, enum tolerance tol,
		long long depth, struct cmp_report *report)
{
	*report = (struct cmp_report){ .ok = true, .compared = count };
	bool rounding = ref->type == ELEM_FLOAT && tol != TOL_EXACT;

	for (size_t i = 0; i < count; i++) {
		double g = elem_get(ref->type, got, i);
		double w = ref->want[i];
		double bound = 0;
		double error = fabs(g - w);
		bool match;
		if (rounding) {
			bound = cmp_bound(tol, depth, w, ref->magnitude[i], ref->terms[i]);
			match = error <= bound; /* false for NaN */
			if (match && bound > 0 && error / bound > report->worst_ratio)
				report->worst_ratio = error / bound;
		} else {
			match = g == w;
		}
		if (match)
			continue;
		if (report->mismatches++ == 0) {
			report->ok = false;
			report->first = i;
			report->got = g;
			report->want = w;
			report->bound = bound;
		}
	}
}
