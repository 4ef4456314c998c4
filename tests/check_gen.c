/* check_gen.c - input generators: fixed by their seed, in range, and poison. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "case/gen.h"
#include "check_suites.h"

static struct init_spec init_of(enum init_kind kind, double lo, double hi, uint64_t seed)
{
	return (struct init_spec){ .kind = kind, .lo = lo, .hi = hi, .seed = seed };
}

START_TEST(test_same_seed_gives_same_data)
{
	float a[1000], b[1000];
	struct init_spec init = init_of(INIT_RANDOM, -1, 1, 42);
	gen_fill(ELEM_FLOAT, &init, a, 1000);
	gen_fill(ELEM_FLOAT, &init, b, 1000);
	ck_assert_msg(memcmp(a, b, sizeof a) == 0, "The same seed must give the same data.");
}
END_TEST

START_TEST(test_other_seed_gives_other_data)
{
	int32_t a[100], b[100];
	struct init_spec one = init_of(INIT_RANDOM, -1000, 1000, 1),
			 two = init_of(INIT_RANDOM, -1000, 1000, 2);
	gen_fill(ELEM_INT, &one, a, 100);
	gen_fill(ELEM_INT, &two, b, 100);
	ck_assert_msg(memcmp(a, b, sizeof a) != 0, "Different seeds should give different data.");
}
END_TEST

START_TEST(test_buffers_of_one_case_get_their_own_seeds)
{
	ck_assert_msg(gen_buffer_seed(1, "a") != gen_buffer_seed(1, "b"),
		      "Two buffers of one case must not share a seed.");
	ck_assert_msg(gen_buffer_seed(1, "a") != gen_buffer_seed(2, "a"),
		      "The case's seed must change every buffer's seed.");
	ck_assert_msg(gen_buffer_seed(7, "in") == gen_buffer_seed(7, "in"), "Seeds are fixed.");
}
END_TEST

START_TEST(test_larger_size_extends_smaller)
{
	uint32_t small[10], large[1000];
	struct init_spec init = init_of(INIT_RANDOM, 0, 4000000000.0, 7);
	gen_fill(ELEM_UINT, &init, small, 10);
	gen_fill(ELEM_UINT, &init, large, 1000);
	ck_assert_msg(memcmp(small, large, sizeof small) == 0,
		      "Element i must not depend on the count, so sizes share a prefix.");
}
END_TEST

START_TEST(test_random_stays_in_range)
{
	float f[10000];
	int32_t i[10000];
	struct init_spec real = init_of(INIT_RANDOM, -1, 1, 3),
			 whole = init_of(INIT_RANDOM, -5, 5, 3);
	gen_fill(ELEM_FLOAT, &real, f, 10000);
	gen_fill(ELEM_INT, &whole, i, 10000);
	int seen_lo = 0, seen_hi = 0;
	for (int k = 0; k < 10000; k++) {
		ck_assert_msg(f[k] >= -1 && f[k] < 1, "Float %g is outside [-1, 1).", f[k]);
		ck_assert_msg(i[k] >= -5 && i[k] <= 5, "Int %d is outside [-5, 5].", i[k]);
		seen_lo |= i[k] == -5;
		seen_hi |= i[k] == 5;
	}
	ck_assert_msg(seen_lo && seen_hi,
		      "Both ends of an integer range should occur in 10000 draws.");
}
END_TEST

START_TEST(test_random_int_gives_whole_floats)
{
	float f[1000];
	struct init_spec init = init_of(INIT_RANDOM_INT, -8, 8, 9);
	gen_fill(ELEM_FLOAT, &init, f, 1000);
	for (int k = 0; k < 1000; k++)
		ck_assert_msg(f[k] == floorf(f[k]) && f[k] >= -8 && f[k] <= 8,
			      "random_int gave %g, not a whole number in [-8, 8].", f[k]);
}
END_TEST

START_TEST(test_fill_and_iota)
{
	int32_t a[5];
	float b[5];
	struct init_spec fill = init_of(INIT_FILL, -3, 0, 0), iota = init_of(INIT_IOTA, 10, 0, 0);
	gen_fill(ELEM_INT, &fill, a, 5);
	gen_fill(ELEM_FLOAT, &iota, b, 5);
	for (int k = 0; k < 5; k++) {
		ck_assert_msg(a[k] == -3, "fill: -3 should fill every element.");
		ck_assert_msg(b[k] == 10 + k, "iota from 10 should give 10 + i.");
	}
}
END_TEST

START_TEST(test_poison_is_nan_for_floats)
{
	float f[3];
	uint32_t u[3];
	struct init_spec poison = init_of(INIT_POISON, 0, 0, 0);
	gen_fill(ELEM_FLOAT, &poison, f, 3);
	gen_fill(ELEM_UINT, &poison, u, 3);
	ck_assert_msg(isnan(f[2]), "Poisoned floats must be NaN, so no comparison passes them.");
	ck_assert_msg(u[2] == 0xDEADBEEFu, "Poisoned integers must be 0xDEADBEEF.");
}
END_TEST

Suite *gen_suite(void)
{
	Suite *s = suite_create("gen");
	TCase *tc = tcase_create("gen");
	tcase_add_test(tc, test_same_seed_gives_same_data);
	tcase_add_test(tc, test_other_seed_gives_other_data);
	tcase_add_test(tc, test_buffers_of_one_case_get_their_own_seeds);
	tcase_add_test(tc, test_larger_size_extends_smaller);
	tcase_add_test(tc, test_random_stays_in_range);
	tcase_add_test(tc, test_random_int_gives_whole_floats);
	tcase_add_test(tc, test_fill_and_iota);
	tcase_add_test(tc, test_poison_is_nan_for_floats);
	suite_add_tcase(s, tc);
	return s;
}
