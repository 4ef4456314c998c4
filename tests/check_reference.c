/* check_reference.c - every CPU reference on small inputs worked out by hand. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"

#include "case/reference.h"
#include "check_suites.h"

static struct ref_output run(enum ref_kind kind, enum elem_type type, const void *data, size_t n,
			     size_t group, long long shift, size_t count)
{
	struct ref_input in = { type, 1, data, n };
	struct ref_output out;
	struct ref_params p = { .group = group, .shift = shift };
	ref_compute(kind, &in, &p, count, &out);
	return out;
}

static void expect_values(const struct ref_output *out, const double *want, size_t count,
			  const char *what)
{
	ck_assert_msg(out->count == count, "%s should give %zu elements.", what, count);
	for (size_t i = 0; i < count; i++)
		ck_assert_msg(out->want[i] == want[i], "%s: element %zu is %g, want %g.", what, i,
			      out->want[i], want[i]);
}

static const int32_t ints[] = { 3, -1, 4, 1, -5, 9, 2 };

START_TEST(test_sum_min_max_over_the_array)
{
	struct ref_output out = run(REF_SUM, ELEM_INT, ints, 7, 0, 0, 1);
	expect_values(&out, (double[]){ 13 }, 1, "sum");
	ref_output_free(&out);
	out = run(REF_MIN, ELEM_INT, ints, 7, 0, 0, 1);
	expect_values(&out, (double[]){ -5 }, 1, "min");
	ref_output_free(&out);
	out = run(REF_MAX, ELEM_INT, ints, 7, 0, 0, 1);
	expect_values(&out, (double[]){ 9 }, 1, "max");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_per_group_with_a_partial_and_an_empty_group)
{
	/* Groups of 3: {3,-1,4} {1,-5,9} {2} and a fourth past the end. */
	struct ref_output out = run(REF_SUM_PER_GROUP, ELEM_INT, ints, 7, 3, 0, 4);
	expect_values(&out, (double[]){ 6, 5, 2, 0 }, 4, "sum_per_group");
	ref_output_free(&out);
	out = run(REF_MIN_PER_GROUP, ELEM_INT, ints, 7, 3, 0, 4);
	expect_values(&out, (double[]){ -1, -5, 2, INT32_MAX }, 4,
		      "min_per_group (empty group: INT_MAX)");
	ref_output_free(&out);
	out = run(REF_MAX_PER_GROUP, ELEM_INT, ints, 7, 3, 0, 4);
	expect_values(&out, (double[]){ 4, 9, 2, INT32_MIN }, 4,
		      "max_per_group (empty group: INT_MIN)");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_dot_products)
{
	const float a[] = { 1, 2, 3, 4 }, b[] = { 0.5f, -1, 2, 0.25f };
	struct ref_input in[2] = { { ELEM_FLOAT, 1, a, 4 }, { ELEM_FLOAT, 1, b, 4 } };
	struct ref_output out;
	ref_compute(REF_DOT, in, &(struct ref_params){ 0 }, 1, &out);
	expect_values(&out, (double[]){ 5.5 }, 1, "dot");
	ck_assert_msg(out.magnitude[0] == 0.5 + 2 + 6 + 1, "dot's magnitude is sum |a_i b_i|.");
	ck_assert_msg(out.terms[0] == 4, "dot has one term an element pair.");
	ref_output_free(&out);
	ref_compute(REF_DOT_PER_GROUP, in, &(struct ref_params){ .group = 2 }, 2, &out);
	expect_values(&out, (double[]){ -1.5, 7 }, 2, "dot_per_group");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_scans)
{
	struct ref_output out = run(REF_INCLUSIVE_SCAN, ELEM_INT, ints, 7, 0, 0, 7);
	expect_values(&out, (double[]){ 3, 2, 6, 7, 2, 11, 13 }, 7, "inclusive_scan");
	ref_output_free(&out);
	out = run(REF_EXCLUSIVE_SCAN, ELEM_INT, ints, 7, 0, 0, 7);
	expect_values(&out, (double[]){ 0, 3, 2, 6, 7, 2, 11 }, 7, "exclusive_scan");
	ref_output_free(&out);
	out = run(REF_INCLUSIVE_SCAN_PER_BLOCK, ELEM_INT, ints, 7, 3, 0, 7);
	expect_values(&out, (double[]){ 3, 2, 6, 1, -4, 5, 2 }, 7, "inclusive_scan_per_block");
	ref_output_free(&out);
	out = run(REF_EXCLUSIVE_SCAN_PER_BLOCK, ELEM_INT, ints, 7, 3, 0, 7);
	expect_values(&out, (double[]){ 0, 3, 2, 0, 1, -4, 0 }, 7, "exclusive_scan_per_block");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_scan_bounds_follow_the_prefix)
{
	const float x[] = { 1, -2, 3 };
	struct ref_output out = run(REF_INCLUSIVE_SCAN, ELEM_FLOAT, x, 3, 0, 0, 3);
	ck_assert_msg(out.magnitude[0] == 1 && out.magnitude[1] == 3 && out.magnitude[2] == 6,
		      "Each scan element's magnitude is the prefix sum of |x|.");
	ck_assert_msg(out.terms[2] == 3, "The third inclusive element has three terms.");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_rotate)
{
	struct ref_output out = run(REF_ROTATE, ELEM_INT, ints, 7, 0, 2, 7);
	expect_values(&out, (double[]){ 4, 1, -5, 9, 2, 3, -1 }, 7, "rotate by 2");
	ref_output_free(&out);
	out = run(REF_ROTATE, ELEM_INT, ints, 7, 0, -1, 7);
	expect_values(&out, (double[]){ 2, 3, -1, 4, 1, -5, 9 }, 7, "rotate by -1");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_rotate_within_each_group)
{
	/* Groups of 3: {3, -1, 4}, {1, -5, 9}, {2}; each turns by one on its own. */
	struct ref_output out = run(REF_ROTATE_PER_GROUP, ELEM_INT, ints, 7, 3, 1, 6);
	expect_values(&out, (double[]){ -1, 4, 3, -5, 9, 1 }, 6, "rotate groups of 3 by 1");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_group_sum_to_every_element)
{
	struct ref_output out = run(REF_SUM_PER_GROUP_BROADCAST, ELEM_INT, ints, 7, 3, 0, 7);
	expect_values(&out, (double[]){ 6, 6, 6, 5, 5, 5, 2 }, 7, "group sums of 3, broadcast");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_scan_down_each_column)
{
	/* Rows of 2: (3, -1), (4, 1), (-5, 9); the 7th element starts a fourth row. */
	struct ref_output out = run(REF_INCLUSIVE_SCAN_COLUMNS, ELEM_INT, ints, 7, 2, 0, 7);
	expect_values(&out, (double[]){ 3, -1, 7, 0, 2, 9, 4 }, 7, "column scan of width 2");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_histogram)
{
	/* Bins 0..3: -1 and 9 fall in none. */
	static const uint32_t values[] = { 2, 0, 2, 3, 9, 2, 0 };
	static const int32_t signed_values[] = { 1, -1, 1 };
	struct ref_output out = run(REF_HISTOGRAM, ELEM_UINT, values, 7, 0, 0, 4);
	expect_values(&out, (double[]){ 2, 0, 3, 1 }, 4, "histogram");
	ref_output_free(&out);
	out = run(REF_HISTOGRAM, ELEM_INT, signed_values, 3, 0, 0, 2);
	expect_values(&out, (double[]){ 0, 2 }, 2, "histogram of signed values");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_integer_sums_wrap_like_the_device)
{
	const int32_t big[] = { INT32_MAX, 1 };
	struct ref_output out = run(REF_SUM, ELEM_INT, big, 2, 0, 0, 1);
	expect_values(&out, (double[]){ INT32_MIN }, 1, "INT_MAX + 1 wrapping");
	ref_output_free(&out);
	const uint32_t ubig[] = { UINT32_MAX, 2 };
	out = run(REF_SUM, ELEM_UINT, ubig, 2, 0, 0, 1);
	expect_values(&out, (double[]){ 1 }, 1, "UINT_MAX + 2 wrapping");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_group_sums_wrap_and_count_their_terms)
{
	/* Groups of 2: INT_MAX + 1 and INT_MIN + -1 wrap, each way; 5 stands alone. */
	const int32_t edge[] = { INT32_MAX, 1, INT32_MIN, -1, 5 };
	struct ref_output out = run(REF_SUM_PER_GROUP, ELEM_INT, edge, 5, 2, 0, 3);
	expect_values(&out, (double[]){ INT32_MIN, INT32_MAX, 5 }, 3, "wrapping group sums");
	ck_assert_msg(out.want_bits[0] == (uint64_t)(int64_t)INT32_MIN &&
			      out.want_bits[1] == (uint64_t)INT32_MAX,
		      "An int sum's bits are sign-extended as elem_get_bits gives them.");
	ref_output_free(&out);
	const uint32_t uedge[] = { UINT32_MAX, 2, 7 };
	out = run(REF_SUM_PER_GROUP, ELEM_UINT, uedge, 3, 2, 0, 2);
	expect_values(&out, (double[]){ 1, 7 }, 2, "wrapping uint group sums");
	ref_output_free(&out);
	/* The bound of a float group sum grows with its terms and their magnitudes. */
	const float f[] = { 1, -2, 3 };
	out = run(REF_SUM_PER_GROUP, ELEM_FLOAT, f, 3, 2, 0, 2);
	expect_values(&out, (double[]){ -1, 3 }, 2, "float group sums");
	ck_assert_msg(out.magnitude[0] == 3 && out.magnitude[1] == 3 && out.terms[0] == 2 &&
			      out.terms[1] == 1,
		      "Each group keeps the sum of its |terms| (3, 3) and their count (2, 1).");
	ref_output_free(&out);
}
END_TEST

START_TEST(test_float_sum_is_compensated)
{
	/* 1 + 1e8 copies of 1e-8 cannot be summed in float; the reference must not lose them. */
	enum { n = 100001 };
	static float x[n];
	x[0] = 1.0f;
	for (int i = 1; i < n; i++)
		x[i] = 1e-8f;
	struct ref_output out = run(REF_SUM, ELEM_FLOAT, x, n, 0, 0, 1);
	double want = 1.0 + (n - 1) * (double)1e-8f;
	ck_assert_msg(fabs(out.want[0] - want) < 1e-15, "The reference sum %.17g should be %.17g.",
		      out.want[0], want);
	ref_output_free(&out);
}
END_TEST

START_TEST(test_lookup_by_name)
{
	ck_assert_msg(ref_lookup("sum_per_group")->per_group, "sum_per_group takes a group.");
	ck_assert_msg(ref_lookup("dot")->inputs == 2, "dot takes two buffers.");
	ck_assert_msg(ref_lookup("rotate")->shifted && !ref_lookup("rotate")->sums,
		      "rotate takes a shift and is compared exactly.");
	ck_assert_msg(ref_lookup("summ") == NULL, "Unknown names find nothing.");
}
END_TEST

/* ref_compute with CLHARNESS_THREADS set to `threads`. */
static struct ref_output run_on_threads(const char *threads, enum ref_kind kind, const float *data,
					size_t n, size_t group, size_t count)
{
	setenv("CLHARNESS_THREADS", threads, 1);
	struct ref_output out = run(kind, ELEM_FLOAT, data, n, group, 0, count);
	unsetenv("CLHARNESS_THREADS");
	return out;
}

START_TEST(test_pieces_and_threads_change_no_result)
{
	/* Several pieces of PARALLEL_GRAIN and a ragged last one; whole numbers whose sums
	 * double holds exactly, so the serial sum below is the true one. */
	size_t n = 2 * PARALLEL_GRAIN + 5;
	float *x = malloc(n * sizeof *x);
	for (size_t i = 0; i < n; i++)
		x[i] = (float)((int)(i * 7919 % 201) - 100);
	const enum ref_kind kinds[] = { REF_SUM, REF_INCLUSIVE_SCAN, REF_EXCLUSIVE_SCAN,
					REF_SUM_PER_GROUP };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t count = kinds[k] == REF_SUM	       ? 1
			       : kinds[k] == REF_SUM_PER_GROUP ? n / 1000 + 1
							       : n;
		struct ref_output one = run_on_threads("1", kinds[k], x, n, 1000, count);
		struct ref_output many = run_on_threads("7", kinds[k], x, n, 1000, count);
		ck_assert_msg(memcmp(one.want, many.want, count * sizeof *one.want) == 0 &&
				      memcmp(one.magnitude, many.magnitude,
					     count * sizeof *one.magnitude) == 0 &&
				      memcmp(one.terms, many.terms, count * sizeof *one.terms) == 0,
			      "Reference %zu is the same on one thread and on seven.", k);
		double sum = 0, magnitude = 0;
		size_t terms = 0;
		for (size_t i = 0; i < count; i++) {
			size_t first = kinds[k] == REF_SUM_PER_GROUP ? i * 1000 : 0;
			size_t last = kinds[k] == REF_SUM ? n
				      : kinds[k] == REF_SUM_PER_GROUP
					      ? (first + 1000 < n ? first + 1000 : n)
				      : kinds[k] == REF_EXCLUSIVE_SCAN ? i
								       : i + 1;
			if (kinds[k] == REF_SUM_PER_GROUP || i == 0) {
				sum = 0;
				magnitude = 0;
				terms = 0;
				for (size_t j = first; j < last; j++) {
					sum += x[j];
					magnitude += fabs(x[j]);
					terms++;
				}
			} else {
				sum += x[last - 1];
				magnitude += fabs(x[last - 1]);
				terms++;
			}
			ck_assert_msg(many.want[i] == sum && many.magnitude[i] == magnitude &&
					      many.terms[i] == terms,
				      "Reference %zu, element %zu: %g over %zu terms, want %g over "
				      "%zu.",
				      k, i, many.want[i], many.terms[i], sum, terms);
		}
		ref_output_free(&one);
		ref_output_free(&many);
	}
	free(x);
}
END_TEST

Suite *reference_suite(void)
{
	Suite *s = suite_create("reference");
	TCase *tc = tcase_create("reference");
	tcase_add_test(tc, test_sum_min_max_over_the_array);
	tcase_add_test(tc, test_per_group_with_a_partial_and_an_empty_group);
	tcase_add_test(tc, test_dot_products);
	tcase_add_test(tc, test_scans);
	tcase_add_test(tc, test_scan_bounds_follow_the_prefix);
	tcase_add_test(tc, test_rotate);
	tcase_add_test(tc, test_rotate_within_each_group);
	tcase_add_test(tc, test_group_sum_to_every_element);
	tcase_add_test(tc, test_scan_down_each_column);
	tcase_add_test(tc, test_histogram);
	tcase_add_test(tc, test_integer_sums_wrap_like_the_device);
	tcase_add_test(tc, test_group_sums_wrap_and_count_their_terms);
	tcase_add_test(tc, test_float_sum_is_compensated);
	tcase_add_test(tc, test_lookup_by_name);
	tcase_add_test(tc, test_pieces_and_threads_change_no_result);
	/* Arrays of pieces on several threads: slow under a sanitizer on a busy machine. */
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
