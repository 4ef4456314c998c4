/* check_compare.c - the comparison: exact classes, and the summation bound of DESIGN.md. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "base/util.h"
#include "case/compare.h"
#include "case/ulps.h"
#include "check_suites.h"

/* A one-element float sum reference: want, sum|x| and the number of terms. */
static struct ref_output one_sum(double want, double magnitude, size_t terms)
{
	struct ref_output r = { .type = ELEM_FLOAT, .lanes = 1, .count = 1 };
	r.want = malloc(sizeof *r.want);
	r.magnitude = malloc(sizeof *r.magnitude);
	r.terms = malloc(sizeof *r.terms);
	r.want[0] = want;
	r.magnitude[0] = magnitude;
	r.terms[0] = terms;
	return r;
}

/* The bound a kernel's built-ins earn: the spec's ulp for each call, loosened under
 * relaxed math; nothing inexact called, nothing allowed. */
START_TEST(test_ulp_bound_of_builtins)
{
	struct ulp_bound b;
	ulp_bound_of_source("kernel void k(global float *o) { o[0] = o[1] * o[2] + o[3]; }", NULL,
			    &b);
	ck_assert_msg(b.ulps == 0, "+ and * are correctly rounded: %g (%s)", b.ulps, b.why);
	ulp_bound_of_source("/* exp(x) in a comment */ kernel void k(global float *o)\n"
			    "{ o[0] = exp(o[1]) + log (o[2]) + exp(o[3]); }",
			    NULL, &b);
	ck_assert_msg(b.ulps == 9 && strstr(b.why, "exp 3 x2") && strstr(b.why, "log 3"),
		      "two exps and a log: %g (%s)", b.ulps, b.why);
	ulp_bound_of_source("kernel void k(global float *o) { o[0] = sqrt(o[1]); }",
			    "-cl-fast-relaxed-math", &b);
	ck_assert_msg(b.ulps == 3 * 4 + 2 && strstr(b.why, "relaxed"),
		      "relaxed math loosens it: %g (%s)", b.ulps, b.why);
	ck_assert(within_ulps(ELEM_FLOAT, 1.0, nextafterf(1.0f, 2.0f), 1));
	ck_assert(!within_ulps(ELEM_FLOAT, 1.0, nextafterf(1.0f, 2.0f), 0));
	ck_assert(within_ulps(ELEM_FLOAT, NAN, NAN, 0));
	ck_assert(!within_ulps(ELEM_FLOAT, INFINITY, 3.0e38, 1000));
	ck_assert_msg(ulps_apart(ELEM_DOUBLE, 68.3192179, 68.3192189) > 1e6 &&
			      ulps_apart(ELEM_FLOAT, 68.3192179, 68.3192189) < 1,
		      "a double's ulp is finer than a float's");
}
END_TEST

/* Two values that differ are written with digits enough to differ, a double's too. */
START_TEST(test_digits_enough_to_differ)
{
	ck_assert_int_eq(digits_to_differ(1.0, 2.0), 9);
	ck_assert_int_eq(digits_to_differ(68.3192179, 68.3192179), 9);
	double a = 68.31921791234, b = 68.31921791239;
	int digits = digits_to_differ(a, b);
	char x[40], y[40];
	snprintf(x, sizeof x, "%.*g", digits, a);
	snprintf(y, sizeof y, "%.*g", digits, b);
	ck_assert_msg(strcmp(x, y) != 0 && digits > 9, "%s and %s read alike", x, y);
}
END_TEST

START_TEST(test_gamma)
{
	double u = 0x1p-24;
	ck_assert_msg(cmp_gamma(0, u) == 0, "gamma(0) is 0.");
	ck_assert_msg(fabs(cmp_gamma(10, u) - 10 * u / (1 - 10 * u)) < 1e-20,
		      "gamma(k) = k u / (1 - k u).");
	ck_assert_msg(isinf(cmp_gamma(1 << 24, u)), "gamma is unbounded once k u reaches 1.");
	ck_assert_msg(cmp_gamma(10, 0x1p-53) < cmp_gamma(10, u) * 1e-8 &&
			      cmp_gamma(10, 0x1p-11) > cmp_gamma(10, u) * 1e3,
		      "Double's gamma is 2^29 times tighter than float's, half's 2^13 looser.");
}
END_TEST

START_TEST(test_sum_within_the_bound_passes_and_beyond_fails)
{
	/* A tree over 1024 terms: depth 1 + log2(1024) = 11. */
	struct ref_output r = one_sum(100.0, 1000.0, 1024);
	double bound = cmp_bound(TOL_REDUCTION, 11, 100.0, 1000.0, 1024, 0x1p-24);
	ck_assert_msg(fabs(bound - (cmp_gamma(11, 0x1p-24) * 1000 + 0x1p-24 * 100)) < 1e-15,
		      "The bound is gamma(k) sum|x| + u |S|.");

	float within = (float)(100.0 + 0.5 * bound);
	struct cmp_report rep;
	cmp_buffer(&r, &within, 1, TOL_REDUCTION, 11, &rep);
	ck_assert_msg(rep.ok, "A sum half the bound away must pass.");
	ck_assert_msg(rep.worst_ratio > 0.4 && rep.worst_ratio < 0.6,
		      "Its |error|/bound is about 0.5, not %g.", rep.worst_ratio);

	float beyond = (float)(100.0 + 2 * bound);
	cmp_buffer(&r, &beyond, 1, TOL_REDUCTION, 11, &rep);
	ck_assert_msg(!rep.ok, "A sum twice the bound away must fail.");
	ck_assert_msg(rep.first == 0 && rep.mismatches == 1 && rep.want == 100.0 &&
			      rep.got == beyond,
		      "The report names the index, got and want.");
	ck_assert_msg(rep.bound == bound, "The report names the bound.");
	ref_output_free(&r);
}
END_TEST

START_TEST(test_tree_bound_catches_a_lost_partial_that_the_sequential_bound_hides)
{
	/* n = 2^20 terms of magnitude 1 summed as 256 partials of 4096 serial terms (depth
	 * 4096 + log2(256)): losing one partial (1/256 of
	 * sum|x|) hides under gamma(n - 1) but not under the tree's depth. */
	double n = 1 << 20, magnitude = n;
	double lost = magnitude / 256;
	double sequential = cmp_bound(TOL_UNORDERED, 0, 0, magnitude, (size_t)n, 0x1p-24);
	double tree = cmp_bound(TOL_REDUCTION, 4096 + 8, 0, magnitude, (size_t)n, 0x1p-24);
	ck_assert_msg(lost < sequential,
		      "gamma(n - 1) sum|x| is loose enough to pass a lost partial.");
	ck_assert_msg(lost > tree, "The tree's own depth is tight enough to catch it.");
}
END_TEST

START_TEST(test_unordered_uses_the_number_of_terms)
{
	ck_assert_msg(cmp_bound(TOL_UNORDERED, 99, 0, 1.0, 5, 0x1p-24) == cmp_gamma(4, 0x1p-24),
		      "Unordered sums use depth n - 1 whatever the case declares.");
}
END_TEST

START_TEST(test_integers_compare_exactly)
{
	int32_t got[] = { 1, 2, 30, 4, 50 };
	struct ref_output r = { .type = ELEM_INT,
				.lanes = 1,
				.count = 5,
				.want = (double[]){ 1, 2, 3, 4, 5 },
				.want_bits = (uint64_t[]){ 1, 2, 3, 4, 5 } };
	struct cmp_report rep;
	cmp_buffer(&r, got, 5, TOL_EXACT, 0, &rep);
	ck_assert_msg(!rep.ok && rep.first == 2 && rep.mismatches == 2 && rep.got == 30 &&
			      rep.want == 3,
		      "Two of five integers differ, the first at index 2.");
	cmp_buffer(&r, got, 2, TOL_EXACT, 0, &rep);
	ck_assert_msg(rep.ok && rep.compared == 2, "Comparing only the first two elements passes.");
}
END_TEST

START_TEST(test_exact_floats_treat_signed_zeros_alike_and_never_pass_nan)
{
	float got[] = { -0.0f, NAN };
	struct ref_output r = {
		.type = ELEM_FLOAT, .lanes = 1, .count = 2, .want = (double[]){ 0.0, 1.0 }
	};
	struct cmp_report rep;
	cmp_buffer(&r, got, 2, TOL_EXACT, 0, &rep);
	ck_assert_msg(!rep.ok && rep.first == 1 && rep.mismatches == 1,
		      "-0 equals +0, and NaN (an unwritten element) never matches.");
	struct ref_output s = one_sum(1.0, 1.0, 1);
	cmp_buffer(&s, &got[1], 1, TOL_REDUCTION, 30, &rep);
	ck_assert_msg(!rep.ok, "NaN fails a bounded comparison too.");
	ref_output_free(&s);
}
END_TEST

START_TEST(test_first_mismatch_is_the_first_across_pieces)
{
	/* Mismatches in the third piece and the second: the report names the second's. */
	size_t n = 3 * PARALLEL_GRAIN + 17;
	int32_t *got = calloc(n, sizeof *got);
	struct ref_output r = { .type = ELEM_INT,
				.lanes = 1,
				.count = n,
				.want = calloc(n, sizeof(double)),
				.want_bits = calloc(n, sizeof(uint64_t)) };
	got[2 * PARALLEL_GRAIN + 3] = 7;
	got[PARALLEL_GRAIN + 1] = 5;
	setenv("CLHARNESS_THREADS", "3", 1);
	struct cmp_report rep;
	cmp_buffer(&r, got, n, TOL_EXACT, 0, &rep);
	unsetenv("CLHARNESS_THREADS");
	ck_assert_msg(!rep.ok && rep.first == PARALLEL_GRAIN + 1 && rep.got == 5 &&
			      rep.mismatches == 2 && rep.compared == n,
		      "Two elements differ, the first at %zu, whichever thread finished first.",
		      (size_t)PARALLEL_GRAIN + 1);
	free(got);
	free(r.want);
	free(r.want_bits);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");
	tcase_add_test(tc, test_gamma);
	tcase_add_test(tc, test_sum_within_the_bound_passes_and_beyond_fails);
	tcase_add_test(tc, test_tree_bound_catches_a_lost_partial_that_the_sequential_bound_hides);
	tcase_add_test(tc, test_unordered_uses_the_number_of_terms);
	tcase_add_test(tc, test_integers_compare_exactly);
	tcase_add_test(tc, test_first_mismatch_is_the_first_across_pieces);
	tcase_add_test(tc, test_exact_floats_treat_signed_zeros_alike_and_never_pass_nan);
	tcase_add_test(tc, test_digits_enough_to_differ);
	tcase_add_test(tc, test_ulp_bound_of_builtins);
	suite_add_tcase(s, tc);
	return s;
}
