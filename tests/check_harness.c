/* check_harness.c - runs every unit suite; with CK_TAP_LOG_FILE_NAME=- it speaks TAP. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "case/testcase.h"
#include "check_suites.h"

char *test_data_path(const char *relative)
{
	const char *root = getenv("CLH_TEST_DATA");
	return xasprintf("%s/%s", root && *root ? root : "tests/data", relative);
}

struct test_case *test_data_case(const char *relative)
{
	char *path = test_data_path(relative);
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL, "%s should load.", relative);
	diag_list_free(&diags);
	free(path);
	return tc;
}

void remove_test_folder(const char *root)
{
	ck_assert_msg(remove_tree(root) == 0, "The test cleans up %s.", root);
}

char *temp_kernel(const char *text)
{
	char *path = xstrdup("/tmp/clharness-test-kernel-XXXXXX.cl");
	int fd = mkstemps(path, 3);
	ck_assert_msg(fd >= 0, "A temporary kernel file can be made.");
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

int main(void)
{
	SRunner *runner = srunner_create(adhoc_suite());
	srunner_add_suite(runner, advice_suite());
	srunner_add_suite(runner, hunt_suite());
	srunner_add_suite(runner, assignment_suite());
	srunner_add_suite(runner, bench_suite());
	srunner_add_suite(runner, case_load_suite());
	srunner_add_suite(runner, catalogue_suite());
	srunner_add_suite(runner, cli_suite());
	srunner_add_suite(runner, compare_suite());
	srunner_add_suite(runner, devname_suite());
	srunner_add_suite(runner, dispatch_suite());
	srunner_add_suite(runner, elem_suite());
	srunner_add_suite(runner, expr_suite());
	srunner_add_suite(runner, finding_suite());
	srunner_add_suite(runner, gen_suite());
	srunner_add_suite(runner, golden_suite());
	srunner_add_suite(runner, gradereport_suite());
	srunner_add_suite(runner, includes_suite());
	srunner_add_suite(runner, sandbox_suite());
	srunner_add_suite(runner, kernelsrc_suite());
	srunner_add_suite(runner, mutsites_suite());
	srunner_add_suite(runner, instrument_suite());
	srunner_add_suite(runner, npy_suite());
	srunner_add_suite(runner, oglog_suite());
	srunner_add_suite(runner, reference_suite());
	srunner_add_suite(runner, report_suite());
	srunner_add_suite(runner, submission_suite());
	srunner_add_suite(runner, progcache_suite());
	srunner_add_suite(runner, walk_suite());
	srunner_add_suite(runner, wire_suite());
	/* Under the TAP driver Check writes TAP itself; its own summary would only add noise. */
	const char *tap = getenv("CK_TAP_LOG_FILE_NAME");
	srunner_run_all(runner, tap && *tap ? CK_SILENT : CK_NORMAL);
	int failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
