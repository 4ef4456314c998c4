/* check_bench.c - the sizes a bench sweep visits: powers of two, as far as memory allows. */
#include "config.h"

#include <stdlib.h>

#include "bench/bench.h"
#include "check_suites.h"

START_TEST(test_sweep_stops_where_memory_or_the_cap_does)
{
	struct test_case *tc = test_data_case("cases/good.yaml"); /* two int buffers of N */
	struct shape l = shape_1d(16), sizes[64];
	size_t n = bench_sweep(tc, &l, 1LL << 20, 0, 0, sizes, 64);
	ck_assert_msg(n == 11 && sizes[0].d[0] == 1024 && sizes[10].d[0] == 1 << 20,
		      "Without limits the sweep goes 2^10 to the cap, 2^20: %zu sizes.", n);
	n = bench_sweep(tc, &l, 1LL << 40, 1 << 16, 0, sizes, 64);
	ck_assert_msg(n == 5 && sizes[4].d[0] == 1 << 14,
		      "A buffer of 2^14 ints is the largest 64 KiB holds: %zu sizes.", n);
	n = bench_sweep(tc, &l, 1LL << 40, 0, 1 << 20, sizes, 64);
	ck_assert_msg(n == 7 && sizes[6].d[0] == 1 << 16,
		      "Two buffers of 2^16 ints fill half of 1 MiB: %zu sizes.", n);
	case_free(tc);
}
END_TEST

START_TEST(test_an_n_d_sweep_is_of_squares_no_smaller_than_a_work_group)
{
	struct test_case *tc = test_data_case("cases/nd_good.yaml");
	struct shape l = { .dims = 2, .d = { 64, 4, 1 } }, sizes[64];
	size_t n = bench_sweep(tc, &l, 1 << 16, 0, 0, sizes, 64);
	ck_assert_msg(n == 3 && sizes[0].dims == 2 && sizes[0].d[0] == 64 && sizes[0].d[1] == 64 &&
			      sizes[2].d[0] == 256,
		      "Squares from 64x64 (a work-group 64 wide) to 256x256 (2^16): %zu sizes.", n);
	case_free(tc);
}
END_TEST

Suite *bench_suite(void)
{
	Suite *s = suite_create("bench");
	TCase *tc = tcase_create("bench");
	tcase_add_test(tc, test_sweep_stops_where_memory_or_the_cap_does);
	tcase_add_test(tc, test_an_n_d_sweep_is_of_squares_no_smaller_than_a_work_group);
	suite_add_tcase(s, tc);
	return s;
}
