/* compare.c - compares a buffer the device wrote with its CPU reference, lane by lane. */
#include "config.h"

#include "case/compare.h"

#include <math.h>

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

void cmp_buffer(const struct ref_output *ref, const void *got, size_t count, enum tolerance tol,
		long long depth, struct cmp_report *report)
{
	*report = (struct cmp_report){ .ok = true };
	bool is_float = elem_is_float(ref->type);
	bool rounding = is_float && tol != TOL_EXACT;
	double u = elem_unit_roundoff(ref->type);

	for (size_t i = 0; i < count; i++) {
		if (elem_is_padding(ref->lanes, i))
			continue;
		report->compared++;
		double g = elem_get(ref->type, got, i);
		double w = ref->want[i];
		double bound = 0;
		bool match;
		if (rounding) {
			double error = fabs(g - w);
			bound = cmp_bound(tol, depth, w, ref->magnitude[i], ref->terms[i], u);
			match = error <= bound; /* false for NaN */
			if (match && bound > 0 && error / bound > report->worst_ratio)
				report->worst_ratio = error / bound;
		} else if (is_float) {
			match = g == w;
		} else {
			match = elem_get_bits(ref->type, got, i) == ref->want_bits[i];
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
