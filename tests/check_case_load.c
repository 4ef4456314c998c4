/* check_case_load.c - the case loader: a good case's model, and every mistake reported at
 * its file:line:col. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/plan.h"
#include "case/testcase.h"
#include "check_suites.h"

/* Loads tests/data/cases/<name>, which must fail, and returns its diagnostics. */
static struct diag_list load_broken(const char *name, char **path)
{
	*path = test_data_path(name);
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(*path, &diags);
	ck_assert_msg(tc == NULL, "%s loaded, but it holds a mistake.", name);
	ck_assert_msg(diags.count > 0, "%s failed to load without saying why.", name);
	return diags;
}

/* Checks that one of the errors of broken case <name> is at line:col and contains `text`. */
static void expect_error(const char *name, int line, int col, const char *text)
{
	char *path;
	struct diag_list diags = load_broken(name, &path);
	bool found = false;
	for (size_t i = 0; i < diags.count && !found; i++) {
		const struct diag *d = &diags.items[i];
		found = d->severity == DIAG_ERROR && strcmp(d->file, path) == 0 &&
			d->line == line && d->col == col && strstr(d->message, text) != NULL;
	}
	if (!found) {
		for (size_t i = 0; i < diags.count; i++)
			fprintf(stderr, "  got %s:%d:%d: %s\n", diags.items[i].file,
				diags.items[i].line, diags.items[i].col, diags.items[i].message);
	}
	ck_assert_msg(found, "%s should report an error at %d:%d containing \"%s\".", name, line,
		      col, text);
	diag_list_free(&diags);
	free(path);
}

/* Checks that broken case <name> reports exactly `count` errors. */
static void expect_error_count(const char *name, size_t count)
{
	char *path;
	struct diag_list diags = load_broken(name, &path);
	ck_assert_msg(diags.count == count,
		      "%s should give %zu error(s), not %zu: one mistake, one error.", name, count,
		      diags.count);
	diag_list_free(&diags);
	free(path);
}

START_TEST(test_good_case_loads_with_its_model)
{
	char *path = test_data_path("cases/good.yaml");
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL, "The good case did not load.");
	ck_assert_msg(diags.count == 0, "The good case produced diagnostics.");
	ck_assert_msg(tc->nsizes == 2 && tc->sizes[0].dims == 1 && tc->sizes[0].d[0] == 64 &&
			      tc->sizes[1].d[0] == 1024,
		      "sizes [64, 'pow(2, 10)'] should load as 64 and 1024.");
	ck_assert_msg(tc->nlocals == 1 && tc->locals[0].d[0] == 16,
		      "local [16] should load as 16.");
	ck_assert_msg(tc->nsteps == 1 && tc->steps[0].nargs == 2,
		      "The case has one step of two arguments.");
	ck_assert_msg(strstr(tc->steps[0].kernel_path, "kernels/copy.cl") != NULL,
		      "The kernel file should be found in the folder above the case.");
	ck_assert_msg(tc->nbuffers == 2 && tc->buffers[1].output,
		      "out is the second buffer, read back.");
	ck_assert_msg(tc->buffers[0].init.kind == INIT_IOTA && tc->buffers[0].init.lo == 5,
		      "in starts as iota from 5.");
	ck_assert_msg(tc->nchecks == 1 && tc->checks[0].ref->kind == REF_ROTATE,
		      "out is checked against rotate.");
	ck_assert_str_eq(tc->name, "good");
	case_free(tc);
	free(path);
}
END_TEST

START_TEST(test_yaml_syntax_error_is_located)
{
	expect_error("cases/syntax.yaml", 3, 6, "YAML: missing comma in flow mapping");
}
END_TEST

/* A function's comma splits a flow list: said as that, not as a count of dimensions. */
START_TEST(test_comma_in_a_shape_expression_is_said)
{
	expect_error("cases/global_comma.yaml", 5, 13,
		     "global: 'max(M' is an expression cut at a comma, as a YAML list [...] "
		     "splits at every one: quote an expression that has a comma");
}
END_TEST

START_TEST(test_typo_in_key_suggests_the_known_key)
{
	expect_error("cases/typo_key.yaml", 7, 16,
		     "unknown key 'bufer' in an argument; did you mean 'buffer'?");
	expect_error_count("cases/typo_key.yaml", 1);
	expect_error("cases/typo_top_key.yaml", 2, 1,
		     "unknown key 'kernal' in a case; did you mean 'kernel'?");
	expect_error_count("cases/typo_top_key.yaml", 1);
}
END_TEST

START_TEST(test_wrong_type_names_what_was_found)
{
	expect_error("cases/wrong_type.yaml", 3, 8, "sizes must be a non-empty list of sizes");
}
END_TEST

START_TEST(test_unknown_reference_lists_the_known_ones)
{
	expect_error("cases/unknown_reference.yaml", 10, 20,
		     "unknown reference 'summ' (known: sum, min");
}
END_TEST

START_TEST(test_unknown_reference_does_not_cascade)
{
	expect_error_count("cases/unknown_reference.yaml", 1);
}
END_TEST

START_TEST(test_unknown_name_in_expression_points_at_the_name)
{
	expect_error("cases/unknown_name.yaml", 5, 13,
		     "unknown name 'W' (known: N, M, K, L, LY, LZ, CU, I)");
}
END_TEST

START_TEST(test_two_dimensional_shapes_load)
{
	char *path = test_data_path("cases/nd_good.yaml");
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL && diags.count == 0, "The 2-D case should load cleanly.");
	ck_assert_msg(tc->nsizes == 2 && tc->sizes[0].dims == 2 && tc->sizes[0].d[0] == 64 &&
			      tc->sizes[0].d[1] == 32 && tc->sizes[1].d[1] == 16,
		      "sizes [[64, 32], [48, 16]] are two shapes of two dimensions.");
	ck_assert_msg(tc->nlocals == 2 && tc->locals[1].dims == 2 && tc->locals[1].d[0] == 8,
		      "local [[16, 4], [8, 8]] are two work-group shapes.");
	ck_assert_msg(tc->steps[0].global_dims == 2, "global: [N, M] has two dimensions.");

	struct plan plan;
	ck_assert_msg(plan_build(tc, &tc->sizes[0], &tc->locals[0], 1, &plan, &diags) == 0,
		      "The case plans at N=64x32, L=16x4.");
	const struct plan_launch *launch = &plan.launches[0];
	ck_assert_msg(launch->dims == 2 && launch->global[0] == 64 && launch->global[1] == 32 &&
			      launch->local[0] == 16 && launch->local[1] == 4 &&
			      launch->offset[0] == 0 && launch->offset[1] == 0,
		      "The launch is 64x32 in groups of 16x4, with no offset.");
	ck_assert_msg(plan.buffer_counts[0] == 64 * 32, "N * M counts the buffer.");
	ck_assert_msg(plan.launches[0].args[2].value.lane[0].whole == 64, "The width scalar is N.");
	plan_free(&plan);
	case_free(tc);
	diag_list_free(&diags);
	free(path);
}
END_TEST

START_TEST(test_dimensions_that_differ_are_errors)
{
	expect_error("cases/nd_local_dims.yaml", 4, 1,
		     "global has 2 dimensions but the work-group shape L=16 has 1: give "
		     "work-group shapes of 2, like local: [[16, 16]]");
	expect_error("cases/nd_step_dims.yaml", 7, 13,
		     "global has 3 dimensions but the step's local size has 2");
	expect_error("cases/nd_offset_dims.yaml", 6, 10,
		     "global has 2 dimensions but offset has 1");
	expect_error("cases/nd_four_dims.yaml", 3, 20,
		     "sizes: a shape has one to 3 dimensions, like [1024, 768], found 4");
}
END_TEST

START_TEST(test_a_dimension_not_divided_by_its_work_group_size_is_an_error)
{
	expect_error("cases/nd_not_multiple.yaml", 5, 13,
		     "global size 'M' is 30 in dimension 1 at N=64x30, L=16x4: not a multiple "
		     "of the work-group size 4; round it up, e.g. ceildiv(M, LY) * LY");
}
END_TEST

START_TEST(test_a_non_uniform_case_plans_a_smaller_last_group)
{
	char *path = test_data_path("cases/nd_non_uniform.yaml");
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL && diags.count == 0 && tc->non_uniform,
		      "non_uniform: true loads.");
	struct plan plan;
	ck_assert_msg(plan_build(tc, &tc->sizes[0], &tc->locals[0], 1, &plan, &diags) == 0,
		      "64x30 in groups of 16x4 plans when the case is non-uniform.");
	ck_assert_msg(plan.non_uniform && plan.launches[0].global[1] == 30,
		      "The plan launches 30 in dimension 1 and says its last group is smaller.");
	plan_free(&plan);
	struct shape whole = { 2, { 64, 32 } }, group = { 2, { 16, 4 } };
	ck_assert_msg(plan_build(tc, &whole, &group, 1, &plan, &diags) == 0 && !plan.non_uniform,
		      "At 64x32 every group is whole.");
	plan_free(&plan);
	case_free(tc);
	diag_list_free(&diags);
	free(path);
}
END_TEST

START_TEST(test_expression_syntax_points_at_the_operator)
{
	expect_error("cases/bad_expression.yaml", 5, 12,
		     "expected a number, a name or '(', found '*'");
}
END_TEST

START_TEST(test_division_by_zero_points_at_the_division)
{
	expect_error("cases/divide_by_zero.yaml", 7, 38,
		     "division by zero: 64 / 0 (at N=64, L=16)");
}
END_TEST

START_TEST(test_count_below_zero_is_an_error)
{
	expect_error("cases/negative_count.yaml", 7, 36,
		     "is -1 at N=64, L=16; it must be zero or more");
}
END_TEST

START_TEST(test_exact_float_sums_need_exact_partials)
{
	expect_error("cases/exact_float_range.yaml", 10, 33,
		     "needs n * max|x| < 2^24 so every partial sum is exact, but at N=1048576, "
		     "L=16 it is 1048576 * 100");
	expect_error("cases/exact_float_reals.yaml", 10, 43, "needs whole-number inputs");
}
END_TEST

START_TEST(test_exact_sums_per_group_hold_at_any_size)
{
	char *path = test_data_path("cases/exact_per_group_any_size.yaml");
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL && diags.count == 0,
		      "A sum of 256 terms of at most 100 is exact at N=2^28: one output adds "
		      "a group, not the array.");
	case_free(tc);
	diag_list_free(&diags);
	free(path);
}
END_TEST

START_TEST(test_debug_build_options_are_refused)
{
	expect_error("cases/options_debug.yaml", 3, 10, "options must not contain -g");
}
END_TEST

START_TEST(test_the_simulator_build_is_as_written_unless_asked)
{
	const char *names[] = { "cases/dead_racy_load.yaml", "cases/optimised_build.yaml" };
	for (int i = 0; i < 2; i++) {
		char *path = test_data_path(names[i]);
		struct diag_list diags = { 0 };
		struct test_case *tc = case_load(path, &diags);
		ck_assert_msg(tc != NULL && diags.count == 0, "%s should load.", names[i]);
		ck_assert_msg(tc->sim_optimised == (i == 1),
			      "%s: sim_build should be optimised only where the case says so.",
			      names[i]);
		case_free(tc);
		diag_list_free(&diags);
		free(path);
	}
	expect_error("cases/sim_build_unknown.yaml", 3, 12,
		     "sim_build must be 'as-written' (the default: every access the source "
		     "makes) or 'optimised'");
}
END_TEST

START_TEST(test_timeout_takes_whole_seconds)
{
	expect_error("cases/timeout_zero.yaml", 3, 10, "timeout must be whole seconds");
}
END_TEST

START_TEST(test_missing_file_is_an_error)
{
	expect_error("cases/no_such_case.yaml", 0, 0, "cannot read the case file");
}
END_TEST

START_TEST(test_case_name_comes_from_the_path_below_cases)
{
	char *name = case_name_from_path("/usr/share/clharness/cases/reduce/halving.yaml");
	ck_assert_str_eq(name, "reduce/halving");
	free(name);
	name = case_name_from_path("my.yaml");
	ck_assert_str_eq(name, "my");
	free(name);
}
END_TEST

/* libfyaml once looped for ever on a directive that is not UTF-8; the file is refused
 * whole before it gets there, at its start, with a note at the byte. */
START_TEST(test_text_that_is_not_utf8_is_refused)
{
	static const char *const texts[] = { "%\xff\n", "about: caf\xc3\n", "about: \xed\xa0\x80\n",
					     "about: \xc0\xaf\n" };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct diag_list diags = { 0 };
		ck_assert_msg(case_load_text("bad.yaml", texts[i], &diags) == NULL,
			      "Text %zu is not UTF-8 and does not load.", i + 1);
		ck_assert_msg(diags.count == 2 && diags.items[0].line == 1 &&
				      diags.items[0].col == 1 &&
				      strstr(diags.items[0].message, "not UTF-8") &&
				      diags.items[1].severity == DIAG_NOTE,
			      "Text %zu is reported at 1:1 as not UTF-8, with a note.", i + 1);
		diag_list_free(&diags);
	}
}
END_TEST

/* The first error about the kernel file when `text` is loaded as if it were the file at
 * `path`; NULL when none. */
static char *kernel_file_error(const char *path, const char *text)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load_text(path, text, &diags);
	case_free(tc);
	char *message = NULL;
	for (size_t i = 0; i < diags.count && !message; i++)
		if (strstr(diags.items[i].message, "kernel file"))
			message = xstrdup(diags.items[i].message);
	diag_list_free(&diags);
	return message;
}

/* A catalogue's case quotes its kernel's lines in diagnostics (and in students' reports):
 * it may name no file outside the catalogue, directly or through a link. */
START_TEST(test_catalogue_kernels_stay_inside_the_catalogue)
{
	char *good = test_data_path("cases/good.yaml");
	static const char *const outside[] = { "/etc/passwd", "../../../../../../etc/passwd",
					       "kernels/../../../etc/passwd" };
	for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
		char *text = xasprintf("kernel: {file: %s, name: k}\n", outside[i]);
		char *message = kernel_file_error(good, text);
		ck_assert_msg(message && strstr(message, "climbs out of the catalogue"),
			      "Kernel file %s is refused as outside the catalogue, not: %s",
			      outside[i], message ? message : "(no error)");
		free(message);
		free(text);
	}

	char root[] = "/tmp/check_case_load_XXXXXX";
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *cmd = xasprintf("mkdir -p '%s/cases' '%s/kernels' && ln -s /etc/passwd "
			      "'%s/kernels/evil.cl' && touch '%s/cases/t.yaml'",
			      root, root, root, root);
	ck_assert_msg(system(cmd) == 0, "The test can make a catalogue.");
	char *path = xasprintf("%s/cases/t.yaml", root);
	char *message = kernel_file_error(path, "kernel: {file: kernels/evil.cl, name: k}\n");
	ck_assert_msg(message && strstr(message, "outside the catalogue"),
		      "A link out of the catalogue is refused, not: %s",
		      message ? message : "(no error)");
	free(message);
	free(cmd);
	remove_test_folder(root);
	free(path);
	free(good);
}
END_TEST

/* A repeat of a billion once made the whole run exit for want of memory. */
START_TEST(test_repeat_beyond_the_limit_is_this_case_error)
{
	expect_error("cases/repeat_too_many.yaml", 7, 13, "a case launches at most 10000 kernels");
}
END_TEST

/* libfyaml 0.8 dies of SIGSEGV on these 14 bytes (found by tests/fuzz/fuzz_case): the
 * text is tried in a child process first, and the case is an error, not the run's end. */
START_TEST(test_text_that_crashes_the_yaml_parser_is_an_error)
{
	struct diag_list diags = { 0 };
	ck_assert_msg(case_load_text("crash.yaml", "? J:\t? NJ:\n? -", &diags) == NULL,
		      "The text does not load.");
	ck_assert_msg(diags.count >= 1 && diags.items[0].line == 1 && diags.items[0].col == 1 &&
			      strstr(diags.items[0].message, "libfyaml) crashes on it"),
		      "It is reported at 1:1 as text the parser crashes on, not: %s",
		      diags.count ? diags.items[0].message : "(nothing)");
	diag_list_free(&diags);
}
END_TEST

/* A buffer's inputs from a .npy file: loaded with the case, element for element. */
START_TEST(test_inputs_come_from_a_npy_file)
{
	char *path = test_data_path("cases/init_from_files.yaml");
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL, "The case loads.");
	const struct init_spec *init = &tc->buffers[0].init;
	ck_assert_msg(init->kind == INIT_FILE && init->data.count == 1024 &&
			      ((const int *)init->data.data)[700] == 700,
		      "Its buffer holds the file's 1024 ints.");
	case_free(tc);
	free(path);
}
END_TEST

/* Each data file that does not fit is an error at its own argument. */
START_TEST(test_data_file_mistakes_at_their_arguments)
{
	expect_error("cases/init_file_mistakes.yaml", 6, 55,
		     "data file 'data/doubles.npy' for buffer 'a': dtype '<f8', but the buffer "
		     "is int ('<i4')");
	expect_error("cases/init_file_mistakes.yaml", 7, 55, "an array in Fortran order");
	expect_error("cases/init_file_mistakes.yaml", 11, 55,
		     "data file 'data/missing.npy' not found");
	expect_error("cases/init_file_mistakes.yaml", 12, 55, "is neither .npy");
	expect_error("cases/init_file_mistakes.yaml", 17, 19,
		     "unknown key 'fil' in a reference; did you mean 'file'?");
	expect_error("cases/init_file_mistakes.yaml", 17, 52,
		     "of belongs to a computed reference, not to a data file's values");
	expect_error_count("cases/init_file_mistakes.yaml", 6);
}
END_TEST

/* at: names one launch, a size and a work-group shape; anything else is an error there. */
START_TEST(test_a_reference_at_one_launch_is_a_size_and_a_local)
{
	expect_error("cases/reference_at_mistake.yaml", 10, 54,
		     "at: is the one launch the values are of, [SIZE, LOCAL]");
	char *path = test_data_path("cases/reference_at_one_launch.yaml");
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	ck_assert_msg(tc != NULL && tc->nchecks == 1 && tc->checks[0].has_at, "at: loads.");
	struct plan plan;
	ck_assert_msg(plan_build(tc, &tc->sizes[0], &tc->locals[0], 1, &plan, &diags) == 0 &&
			      !plan.checks[0].elsewhere,
		      "At N=1024 L=16 the file's values are compared.");
	plan_free(&plan);
	ck_assert_msg(plan_build(tc, &tc->sizes[1], &tc->locals[0], 1, &plan, &diags) == 0 &&
			      plan.checks[0].elsewhere,
		      "At N=64 the file, of 1024 values, is no error: nothing is compared there.");
	plan_free(&plan);
	case_free(tc);
	diag_list_free(&diags);
	free(path);
}
END_TEST

Suite *case_load_suite(void)
{
	Suite *s = suite_create("case_load");
	TCase *tc = tcase_create("case_load");
	tcase_add_test(tc, test_good_case_loads_with_its_model);
	tcase_add_test(tc, test_yaml_syntax_error_is_located);
	tcase_add_test(tc, test_typo_in_key_suggests_the_known_key);
	tcase_add_test(tc, test_wrong_type_names_what_was_found);
	tcase_add_test(tc, test_unknown_reference_lists_the_known_ones);
	tcase_add_test(tc, test_unknown_reference_does_not_cascade);
	tcase_add_test(tc, test_unknown_name_in_expression_points_at_the_name);
	tcase_add_test(tc, test_two_dimensional_shapes_load);
	tcase_add_test(tc, test_dimensions_that_differ_are_errors);
	tcase_add_test(tc, test_a_dimension_not_divided_by_its_work_group_size_is_an_error);
	tcase_add_test(tc, test_a_non_uniform_case_plans_a_smaller_last_group);
	tcase_add_test(tc, test_expression_syntax_points_at_the_operator);
	tcase_add_test(tc, test_division_by_zero_points_at_the_division);
	tcase_add_test(tc, test_count_below_zero_is_an_error);
	tcase_add_test(tc, test_exact_float_sums_need_exact_partials);
	tcase_add_test(tc, test_exact_sums_per_group_hold_at_any_size);
	tcase_add_test(tc, test_debug_build_options_are_refused);
	tcase_add_test(tc, test_the_simulator_build_is_as_written_unless_asked);
	tcase_add_test(tc, test_timeout_takes_whole_seconds);
	tcase_add_test(tc, test_missing_file_is_an_error);
	tcase_add_test(tc, test_case_name_comes_from_the_path_below_cases);
	tcase_add_test(tc, test_text_that_is_not_utf8_is_refused);
	tcase_add_test(tc, test_catalogue_kernels_stay_inside_the_catalogue);
	tcase_add_test(tc, test_repeat_beyond_the_limit_is_this_case_error);
	tcase_add_test(tc, test_text_that_crashes_the_yaml_parser_is_an_error);
	tcase_add_test(tc, test_inputs_come_from_a_npy_file);
	tcase_add_test(tc, test_data_file_mistakes_at_their_arguments);
	tcase_add_test(tc, test_a_reference_at_one_launch_is_a_size_and_a_local);
	tcase_add_test(tc, test_comma_in_a_shape_expression_is_said);
	suite_add_tcase(s, tc);
	return s;
}
