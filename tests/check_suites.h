/* check_suites.h - the unit suites, one a module, and what they share. */
#ifndef CLH_CHECK_SUITES_H
#define CLH_CHECK_SUITES_H

#include <check.h>

Suite *adhoc_suite(void);
Suite *advice_suite(void);
Suite *hunt_suite(void);
Suite *assignment_suite(void);
Suite *bench_suite(void);
Suite *case_load_suite(void);
Suite *catalogue_suite(void);
Suite *cli_suite(void);
Suite *compare_suite(void);
Suite *devname_suite(void);
Suite *dispatch_suite(void);
Suite *elem_suite(void);
Suite *expr_suite(void);
Suite *finding_suite(void);
Suite *gen_suite(void);
Suite *golden_suite(void);
Suite *gradereport_suite(void);
Suite *includes_suite(void);
Suite *kernelsrc_suite(void);
Suite *mutsites_suite(void);
Suite *instrument_suite(void);
Suite *npy_suite(void);
Suite *oglog_suite(void);
Suite *reference_suite(void);
Suite *report_suite(void);
Suite *submission_suite(void);
Suite *progcache_suite(void);
Suite *sandbox_suite(void);
Suite *walk_suite(void);
Suite *wire_suite(void);

/* The path of a file under tests/data, found through $CLH_TEST_DATA (set by make check)
 * or from the source tree's root. Caller frees. */
char *test_data_path(const char *relative);
struct test_case;
/* The test case in the file `relative` under tests/data, loaded; the test fails where it
 * does not load. Caller frees (case_free). */
struct test_case *test_data_case(const char *relative);
/* Writes `text` to a fresh .cl file under /tmp; the caller unlinks and frees the path. */
char *temp_kernel(const char *text);
/* Removes a folder a test made under /tmp, with all it holds. */
void remove_test_folder(const char *root);

#endif
