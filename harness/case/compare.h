/* compare.h - compares a buffer the device wrote with its CPU reference. */
#ifndef CLH_COMPARE_H
#define CLH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "case/reference.h"
#include "case/testcase.h"

/* What a comparison found. For a mismatch: the first index that differs, its values and
 * bound, and how many elements differ. worst_ratio is the largest |error| / bound over
 * the buffer (0 for exact comparisons): kept as a drift figure across devices. */
struct cmp_report {
	bool ok;
	size_t compared;
	size_t mismatches;
	size_t first;
	double got;
	double want;
	double bound;
	double worst_ratio;
};

/* gamma(k) = k u / (1 - k u): the relative error bound of k rounded additions in a type
 * of unit roundoff u (elem_unit_roundoff: 2^-11 half, 2^-24 float, 2^-53 double). */
double cmp_gamma(double k, double u);

/* The accepted |got - want| of one element of a type of unit roundoff u: 0 when exact;
 * for TOL_REDUCTION gamma(depth) * magnitude + u * |want|; for TOL_UNORDERED the depth
 * is terms - 1. */
double cmp_bound(enum tolerance tol, long long depth, double want, double magnitude, size_t terms,
		 double u);

/* Compares the first `count` scalars of `got` with ref, lane by lane, passing over a
 * 3-vector's padding lane. Integers must be equal (ref->want_bits); floats must lie
 * within cmp_bound with their type's u (exact: ==, so +0 equals -0; NaN never matches).
 * A mismatch's `first` is a scalar index: element first / elem_stride(lanes), lane
 * first % elem_stride(lanes). */
void cmp_buffer(const struct ref_output *ref, const void *got, size_t count, enum tolerance tol,
		long long depth, struct cmp_report *report);

#endif
