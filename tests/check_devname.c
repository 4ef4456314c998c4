/* check_devname.c - short device names, --device matching, and build-log positions. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "exec/buildlog.h"
#include "exec/devname.h"

static void expect_name(const char *vendor, const char *platform, const char *device,
			const char *type, const char *want)
{
	char *name = devname_short(vendor, platform, device, type);
	ck_assert_msg(strcmp(name, want) == 0, "%s on %s should be named %s, not %s.", device,
		      platform, want, name);
	free(name);
}

START_TEST(test_short_names)
{
	expect_name("The pocl project", "Portable Computing Language",
		    "pthread-skylake-avx512-AMD EPYC", "cpu", "pocl-cpu");
	expect_name("NVIDIA Corporation", "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", "gpu",
		    "nvidia-h100");
	expect_name("NVIDIA Corporation", "NVIDIA CUDA", "NVIDIA H200", "gpu", "nvidia-h200");
	expect_name("Advanced Micro Devices, Inc.", "AMD Accelerated Parallel Processing",
		    "gfx90a:sramecc+:xnack-", "gpu", "amd-gfx90a");
	expect_name("Intel(R) Corporation", "Intel(R) OpenCL Graphics",
		    "Intel(R) Arc(TM) A770 Graphics", "gpu", "intel-a770");
	expect_name("Acme", "Acme CL", "Widget", "accelerator", "acme-accelerator");
}
END_TEST

START_TEST(test_device_patterns)
{
	ck_assert_msg(devname_matches("pocl-cpu", "pocl-cpu", "cpu"), "The exact name matches.");
	ck_assert_msg(devname_matches("pocl", "pocl-cpu", "cpu"), "The platform word matches.");
	ck_assert_msg(devname_matches("cpu", "pocl-cpu", "cpu"), "The type matches.");
	ck_assert_msg(devname_matches("all", "nvidia-h100", "gpu"), "all matches everything.");
	ck_assert_msg(!devname_matches("poc", "pocl-cpu", "cpu"), "A partial word does not match.");
	ck_assert_msg(!devname_matches("gpu", "pocl-cpu", "cpu"), "Another type does not match.");
	ck_assert_msg(devname_matches("nvidia+racecheck", "nvidia-h100+racecheck", "racecheck") &&
			      devname_matches("nvidia-h100+racecheck", "nvidia-h100+racecheck",
					      "racecheck"),
		      "A device's word with a backend's suffix names that backend's target of it.");
	ck_assert_msg(!devname_matches("pocl+racecheck", "nvidia-h100+racecheck", "racecheck") &&
			      !devname_matches("nvid+racecheck", "nvidia-h100+racecheck", "racecheck"),
		      "Another device's, or a partial word, does not.");
}
END_TEST

START_TEST(test_build_log_positions)
{
	int line, col;
	char *msg;
	ck_assert_msg(buildlog_first_error(
			      "error: /root/.cache/pocl/kcache/tempfile_x.cl:4:26: use of "
			      "undeclared identifier 'q'\nDevice failed to build the program",
			      &line, &col, &msg),
		      "PoCL's shape of log has a position.");
	ck_assert_msg(line == 4 && col == 26 &&
			      strcmp(msg, "use of undeclared identifier 'q'") == 0,
		      "PoCL: 4:26 and the message, not %d:%d %s.", line, col, msg);
	free(msg);
	ck_assert_msg(buildlog_first_error(
			      "<kernel>:2:1: warning: unused\n<kernel>:7:12: error: expected ';'\n",
			      &line, &col, &msg),
		      "Clang's shape of log has a position.");
	ck_assert_msg(line == 7 && col == 12 && strcmp(msg, "expected ';'") == 0,
		      "The first error, not the warning before it.");
	free(msg);
	ck_assert_msg(!buildlog_first_error("Build failed.\n", &line, &col, &msg),
		      "A log without positions gives none.");
}
END_TEST

START_TEST(test_build_log_names_the_users_file)
{
	char *named = buildlog_name_source(
		"error: /root/.cache/pocl/kcache/tempfile_Ab12Cd.cl:4:26: use of 'q'\n"
		"<kernel>:7:12: error: expected ';'\nsee tempfile_Ab12Cd.cl for more\n",
		"student/k.cl");
	ck_assert_msg(strcmp(named, "error: student/k.cl:4:26: use of 'q'\n"
				    "student/k.cl:7:12: error: expected ';'\n"
				    "see tempfile_Ab12Cd.cl for more\n") == 0,
		      "A driver's name for the source, where it heads a position, becomes the "
		      "user's file; elsewhere it stays: %s",
		      named);
	free(named);
	named = buildlog_name_source("input.cl:100:44: error: use of undeclared identifier "
				     "'BLOCK_SIZE'\nsee lib/input.cl:3:1\n",
				     "kernels/hotspot.cl");
	ck_assert_msg(strcmp(named, "kernels/hotspot.cl:100:44: error: use of undeclared "
				    "identifier 'BLOCK_SIZE'\nsee lib/input.cl:3:1\n") == 0,
		      "Oclgrind's input.cl is the user's file; a file of that name in a folder "
		      "is not: %s",
		      named);
	free(named);
}
END_TEST

START_TEST(test_an_undefined_macro_hints_at_minus_d)
{
	char *hint = buildlog_hint("use of undeclared identifier 'BLOCK_SIZE'");
	ck_assert_msg(hint && strstr(hint, "-D BLOCK_SIZE=VALUE"),
		      "A name in capitals the build lacks is most often the application's -D.");
	free(hint);
	ck_assert_msg(buildlog_hint("use of undeclared identifier 'tile'") == NULL &&
			      buildlog_hint("expected ';' after expression") == NULL,
		      "Other errors get no hint.");
}
END_TEST

Suite *devname_suite(void)
{
	Suite *s = suite_create("devname");
	TCase *tc = tcase_create("devname");
	tcase_add_test(tc, test_short_names);
	tcase_add_test(tc, test_device_patterns);
	tcase_add_test(tc, test_build_log_positions);
	tcase_add_test(tc, test_an_undefined_macro_hints_at_minus_d);
	tcase_add_test(tc, test_build_log_names_the_users_file);
	suite_add_tcase(s, tc);
	return s;
}
