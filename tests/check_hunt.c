/* check_hunt.c - the hunt's sweep: what it tries, in what order, for a one-dimensional
 * kernel at its own launch of N=64, L=16. */
#include "config.h"

#include <stdlib.h>

#include "check/hunt.h"
#include "check_suites.h"

static const struct shape own_n = { .dims = 1, .d = { 64 } };
static const struct shape own_l = { .dims = 1, .d = { 16 } };

static size_t plan(unsigned sets, bool ragged, struct hunt_trial **trials)
{
	return hunt_plan(&own_n, &own_l, sets, 1024, ragged, false, trials);
}

static ptrdiff_t find(const struct hunt_trial *t, size_t count, enum input_set set, long long n,
		      long long l, bool optimised)
{
	for (size_t i = 0; i < count; i++)
		if (t[i].set == set && t[i].n.d[0] == n && t[i].l.d[0] == l &&
		    t[i].optimised == optimised)
			return (ptrdiff_t)i;
	return -1;
}

START_TEST(test_the_plain_run_comes_first_built_as_written)
{
	struct hunt_trial *t;
	size_t count = plan(1u << SET_RANDOM, false, &t);
	ck_assert_msg(count > 1 && t[0].set == SET_RANDOM && t[0].n.d[0] == 64 &&
			      t[0].l.d[0] == 16 && !t[0].optimised,
		      "Trial 1 must be the kernel's own launch, random inputs, built as written.");
	ck_assert_msg(t[1].set == SET_RANDOM && t[1].n.d[0] == 64 && t[1].l.d[0] == 16 &&
			      t[1].optimised,
		      "Trial 2 must be the same launch optimised: it tells whether the simulator "
		      "can run the optimised build before the sweep spends on it.");
	free(t);
}
END_TEST

START_TEST(test_every_group_size_and_count_in_both_builds)
{
	struct hunt_trial *t;
	size_t count = plan(1u << SET_RANDOM, false, &t);
	for (long long l = 1; l <= 1024; l *= 2)
		for (long long groups = 1; groups <= 3; groups++) {
			ptrdiff_t as_written = find(t, count, SET_RANDOM, groups * l, l, false);
			ptrdiff_t optimised = find(t, count, SET_RANDOM, groups * l, l, true);
			ck_assert_msg(as_written >= 0 && optimised >= 0,
				      "L=%lld, %lld groups: both builds should be tried.", l,
				      groups);
			ck_assert_msg(
				as_written < optimised,
				"L=%lld, %lld groups: the optimised build, which mostly takes "
				"accesses away, should come after the program as written.",
				l, groups);
		}
	ck_assert_msg(find(t, count, SET_RANDOM, 2048 * 2, 2048, false) < 0,
		      "No group may pass the simulator's 1024 items.");
	free(t);
}
END_TEST

START_TEST(test_a_case_gets_n_half_a_group_short)
{
	struct hunt_trial *t;
	size_t count = plan(1u << SET_RANDOM, true, &t);
	ck_assert_msg(find(t, count, SET_RANDOM, 2 * 16 - 8, 16, false) >= 0,
		      "A case's sweep should try N half a group short of two groups.");
	free(t);
	count = plan(1u << SET_RANDOM, false, &t);
	ck_assert_msg(find(t, count, SET_RANDOM, 2 * 16 - 8, 16, false) < 0,
		      "A kernel launched as check takes it must launch whole groups.");
	free(t);
}
END_TEST

START_TEST(test_the_tail_scalar_needs_a_group_of_two)
{
	struct hunt_trial *t;
	size_t count = plan((1u << SET_RANDOM) | (1u << SET_SCALAR_TAIL), false, &t);
	ck_assert_msg(find(t, count, SET_SCALAR_TAIL, 32, 16, false) >= 0,
		      "Scalars N - L/2 should be tried where a group has items to spare.");
	ck_assert_msg(find(t, count, SET_SCALAR_TAIL, 2, 1, false) < 0,
		      "At L=1, N - L/2 is N: the random set again, not a trial of its own.");
	free(t);
}
END_TEST

START_TEST(test_a_trial_says_its_build)
{
	struct hunt_trial t = { .set = SET_ZEROS,
				.n = { .dims = 1, .d = { 24 } },
				.l = { .dims = 1, .d = { 8 } },
				.optimised = true };
	char text[200];
	hunt_trial_text(&t, false, text, sizeof text);
	ck_assert_str_eq(text, "zeros inputs, N=24 L=8, optimised build");
	t.optimised = false;
	t.set = SET_SCALAR_TAIL;
	hunt_trial_text(&t, false, text, sizeof text);
	ck_assert_str_eq(text, "scalar-tail inputs, N=24 L=8, built as written");
}
END_TEST

Suite *hunt_suite(void)
{
	Suite *s = suite_create("hunt");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, test_the_plain_run_comes_first_built_as_written);
	tcase_add_test(tc, test_every_group_size_and_count_in_both_builds);
	tcase_add_test(tc, test_a_case_gets_n_half_a_group_short);
	tcase_add_test(tc, test_the_tail_scalar_needs_a_group_of_two);
	tcase_add_test(tc, test_a_trial_says_its_build);
	suite_add_tcase(s, tc);
	return s;
}
