/* check_assignment.c - assignments: kernel prototypes, signature comparison, the loader's
 * errors at their lines, and the submission put in place of a case's kernels. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/testcase.h"
#include "check_suites.h"
#include "findings/finding.h"
#include "grade/assignment.h"

START_TEST(test_prototype_gives_name_spaces_and_types)
{
	char *name = NULL, *why = NULL;
	struct kernel_sig sig;
	ck_assert_msg(kernel_proto_parse("kernel void reduce_sum(global const int *in, uint n, "
					 "__local int* scratch, __global int *out)",
					 &name, &sig, &why) == 0,
		      "A kernel prototype parses (%s).", why ? why : "");
	ck_assert_msg(strcmp(name, "reduce_sum") == 0, "The kernel is named reduce_sum.");
	ck_assert_msg(sig.count == 4, "It has four parameters, not %zu.", sig.count);
	const char *types[] = { "int*", "uint", "int*", "int*" };
	const enum arg_kind kinds[] = { ARG_BUFFER, ARG_SCALAR, ARG_LOCAL, ARG_BUFFER };
	for (size_t i = 0; i < 4; i++)
		ck_assert_msg(strcmp(sig.params[i].type, types[i]) == 0 &&
				      sig.params[i].kind == kinds[i],
			      "Parameter %zu is %s, not %s.", i + 1, types[i], sig.params[i].type);
	ck_assert_msg(sig.params[0].read_only && !sig.params[3].read_only,
		      "A pointer to const is read-only; one without const is not.");
	ck_assert_msg(strcmp(sig.params[2].name, "scratch") == 0, "Parameter names are kept.");
	free(name);
	kernel_sig_free(&sig);
}
END_TEST

START_TEST(test_prototype_mistakes_are_named)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "void f(global int *x)", "kernel void NAME" },
		{ "kernel void f(global int x)", "no pointer" },
		{ "kernel void f(int *x)", "needs an address space" },
		{ "kernel void f(global int *x,)", "empty parameter" },
		{ "kernel void f(global int *)", "a type and a name" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *name = NULL, *why = NULL;
		struct kernel_sig sig;
		ck_assert_msg(kernel_proto_parse(bad[i].text, &name, &sig, &why) < 0 && why &&
				      strstr(why, bad[i].why),
			      "'%s' is refused saying '%s', not '%s'.", bad[i].text, bad[i].why,
			      why ? why : "(accepted)");
		free(why);
	}
}
END_TEST

START_TEST(test_signatures_compare_spaces_and_types_not_names)
{
	char *name, *why = NULL;
	struct kernel_sig want, same, other, shorter;
	kernel_proto_parse("kernel void k(global const float *in, unsigned int n)", &name, &want,
			   &why);
	free(name);
	kernel_proto_parse("kernel void k(global float *data, uint count)", &name, &same, &why);
	free(name);
	kernel_proto_parse("kernel void k(local float *in, uint n)", &name, &other, &why);
	free(name);
	kernel_proto_parse("kernel void k(global const float *in)", &name, &shorter, &why);
	free(name);
	char *diff = kernel_sig_mismatch(&want, &same);
	ck_assert_msg(diff == NULL, "Names, const and the spelling of uint do not matter (%s).",
		      diff ? diff : "");
	diff = kernel_sig_mismatch(&want, &other);
	ck_assert_msg(diff && strstr(diff, "parameter 1 is 'local float* in'") &&
			      strstr(diff, "asks for 'global float* in'"),
		      "Another memory space is named with both spellings: %s", diff);
	free(diff);
	diff = kernel_sig_mismatch(&want, &shorter);
	ck_assert_msg(diff && strstr(diff, "takes 1 parameter, the assignment asks for 2"),
		      "A missing parameter is counted: %s", diff);
	free(diff);
	kernel_sig_free(&want);
	kernel_sig_free(&same);
	kernel_sig_free(&other);
	kernel_sig_free(&shorter);
}
END_TEST

/* The shipped assignment, as make check finds it from tests/data. */
static char *shipped(const char *name)
{
	char *relative = xasprintf("../../assignments/%s.yaml", name);
	char *path = test_data_path(relative);
	free(relative);
	return path;
}

START_TEST(test_shipped_assignment_loads)
{
	char *path = shipped("reduce_sum");
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load(path, &diags);
	ck_assert_msg(a != NULL, "assignments/reduce_sum.yaml loads (%s).",
		      diags.count ? diags.items[0].message : "");
	ck_assert_msg(a->nkernels == 1 && a->nchecks == 5 && a->max_points == 100,
		      "It declares one kernel and five checks worth 100 points.");
	ck_assert_msg(a->checks[1].hidden && !a->checks[0].hidden, "sums_any_n is hidden.");
	ck_assert_msg(a->checks[2].kind == GRADE_SIMULATE &&
			      a->checks[2].forbid ==
				      ((1u << FINDING_RACE) | (1u << FINDING_DIVERGENCE) |
				       (1u << FINDING_ASYNC_COPY)),
		      "race_free forbids races, async copies never waited for (which race "
		      "with what reads their memory) and barrier divergence.");
	ck_assert_msg(a->checks[4].kind == GRADE_SPEED && a->checks[4].nsizes == 1 &&
			      a->checks[4].full > a->checks[4].none,
		      "speed times one size between two thresholds.");
	ck_assert_msg(a->checks[4].against_path &&
			      strstr(a->checks[4].against_path, "cases/reduce/grid_float4.yaml"),
		      "speed is measured against the catalogue's fast reduction.");
	ck_assert_msg(a->wall_s == 10 && a->address_space == (uint64_t)32 << 30,
		      "The limits are read: 10 s wall-clock, 32 GiB of address space.");

	struct test_case *tc = case_load(a->checks[0].case_path, &diags);
	ck_assert_msg(tc != NULL, "The check's case loads.");
	assignment_substitute(a, tc, "alice.cl");
	ck_assert_msg(strcmp(tc->steps[0].kernel_path, "alice.cl") == 0 &&
			      strcmp(tc->steps[0].kernel_name, "reduce_sum") == 0,
		      "The submission takes the place of the case's kernel file.");
	case_free(tc);
	assignment_free(a);
	free(path);
}
END_TEST

/* Loads `text` as if it stood in the catalogue's assignments folder, so that its case
 * paths resolve as a shipped one's do; returns the first error's text. */
static char *first_error(const char *text, int *line, int *col)
{
	char *path = shipped("broken");
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load_text(path, text, &diags);
	ck_assert_msg(a == NULL && diags.count > 0, "A broken assignment does not load.");
	char *message = xstrdup(diags.items[0].message);
	*line = diags.items[0].line;
	*col = diags.items[0].col;
	diag_list_free(&diags);
	free(path);
	return message;
}

START_TEST(test_assignment_mistakes_at_their_lines)
{
	static const struct {
		const char *text, *message;
		int line, col;
	} bad[] = {
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: c, points: 0, correct: {case: "
		  "cases/student/guard_with_identity.yaml}}\n",
		  "points must be above 0", 4, 15 },
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - name: c\n    points: 1\n    simulate: {case: "
		  "cases/student/guard_with_identity.yaml}\n    forbid: [races]\n",
		  "unknown finding kind 'races'", 7, 14 },
		{ "kernels:\n  - kernel void reduce_sum(global const float *in, uint n, local float *s, "
		  "global float *out)\nchecks:\n  - {name: c, points: 1, correct: {case: "
		  "cases/student/guard_with_identity.yaml}}\n",
		  "gives kernel reduce_sum what its prototype does not take: parameter 1", 4, 36 },
		{ "kernels: [kernel void other(global int *x)]\nchecks:\n  - {name: c, points: 1, "
		  "correct: {case: cases/scan/whole_array.yaml}}\n",
		  "runs kernel scan_blocks, which the assignment does not declare", 3, 36 },
		{ "kernels: [kernel void k(global int *x)]\nchecks:\n  - {name: c, points: 1, "
		  "speed: {case: nowhere.yaml, size: 1, local: 1, full: 1, none: 0}}\n",
		  "cannot find case nowhere.yaml", 3, 34 },
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: c, points: 1, speed: {case: "
		  "cases/student/guard_with_identity.yaml, against: nowhere.yaml, size: 1, local: "
		  "1, full: 1, none: 0}}\n",
		  "cannot find case nowhere.yaml", 4, 89 },
		{ "kernels: [kernel void k(global int *x)]\nlimits: {memory: 12 apples}\nchecks: []\n",
		  "limits.memory must be a size of at least 1 MiB", 2, 18 },
		{ "kernels: [kernel void k(global int *x)]\nallow: [inline-assembly, ptx]\n"
		  "checks: []\n",
		  "unknown kind of native code 'ptx' (known: inline-assembly, function-pointers)",
		  2, 26 },
		{ "kernels: [kernel void k(global int *x)]\nallow: inline-assembly\nchecks: []\n",
		  "allow must list what submissions may hold beyond OpenCL C", 2, 8 },
		/* A check with no name before one with a name: the second's search for a
		 * namesake once read the first's missing name. */
		{ "kernels: [kernel void k(global int *x)]\nchecks:\n  - {points: 1, simulate: "
		  "{case: nowhere.yaml}}\n  - {name: b, points: 1, simulate: {case: "
		  "nowhere.yaml}}\n",
		  "expected the check's name", 3, 6 },
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: c, points: 1, correct: {case: "
		  "cases/student/guard_with_identity.yaml}}\n  - {name: r, points: 1, requires: "
		  "[c, d], forbid: [race], simulate: {case: "
		  "cases/student/guard_with_identity.yaml}}\n",
		  "requires names d, which is no correct check listed before this one (those are: "
		  "c)",
		  5, 40 },
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: c, points: 1, requires: [c], correct: "
		  "{case: cases/student/guard_with_identity.yaml}}\n",
		  "requires belongs to a simulate check, not a correct one", 4, 26 },
		{ "kernels:\n  - kernel void transpose_tiled(global const float *in, global float "
		  "*out, int width, int height, local float *tile)\nchecks:\n  - {name: square, "
		  "points: 1, correct: {case: cases/matrix/transpose_tiled.yaml, sizes: [64, 256], "
		  "local: [[8, 8], 16]}}\n",
		  "check square's size 64 has 1 dimension, but ", 4, 90 },
		{ "kernels:\n  - kernel void transpose_tiled(global const float *in, global float "
		  "*out, int width, int height, local float *tile)\nchecks:\n  - {name: square, "
		  "points: 1, correct: {case: cases/matrix/transpose_tiled.yaml, local: [[8, 8], "
		  "16]}}\n",
		  "launches 2-D work-groups (L x LY): write each shape as [16, 16]", 4, 91 },
		{ "%\xff\n", "not UTF-8 text", 1, 1 },
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: r, points: 1, forbid: [race], simulate: "
		  "{case: cases/student/guard_with_identity.yaml, target: pocl}}\n",
		  "a simulate check's target is oclgrind or racecheck, found 'pocl'", 4, 107 },
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: r, points: 1, forbid: [race], simulate: "
		  "{case: cases/student/guard_with_identity.yaml, target: racecheck}}\n  - {name: "
		  "m, points: 1, forbid: [race], simulate: {case: "
		  "cases/student/guard_with_identity.yaml, target: oclgrind}}\n",
		  "the simulate checks of one assignment run on one target: the one before runs on "
		  "racecheck",
		  5, 107 },
		/* racecheck sees no uninitialised value: forbidding one there pays for nothing
		 * checked. */
		{ "kernels:\n  - kernel void reduce_sum(global const int *in, uint n, local int *s, "
		  "global int *out)\nchecks:\n  - {name: r, points: 1, forbid: [out-of-bounds, "
		  "uninitialized], simulate: {case: cases/student/guard_with_identity.yaml, target: "
		  "racecheck}}\n",
		  "this check runs on racecheck, which cannot see uninitialised values", 4, 26 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int line, col;
		char *message = first_error(bad[i].text, &line, &col);
		ck_assert_msg(strstr(message, bad[i].message) && line == bad[i].line &&
				      col == bad[i].col,
			      "Mistake %zu is '%s' at %d:%d, not '%s' at %d:%d.", i + 1,
			      bad[i].message, bad[i].line, bad[i].col, message, line, col);
		free(message);
	}
}
END_TEST

Suite *assignment_suite(void)
{
	Suite *s = suite_create("assignment");
	TCase *tc = tcase_create("assignment");
	tcase_add_test(tc, test_prototype_gives_name_spaces_and_types);
	tcase_add_test(tc, test_prototype_mistakes_are_named);
	tcase_add_test(tc, test_signatures_compare_spaces_and_types_not_names);
	tcase_add_test(tc, test_shipped_assignment_loads);
	tcase_add_test(tc, test_assignment_mistakes_at_their_lines);
	suite_add_tcase(s, tc);
	return s;
}
