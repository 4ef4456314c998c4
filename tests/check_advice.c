/* check_advice.c - where the fix goes: each kind of finding against a small kernel source
 * that holds the mistake, the line the advice names and what it tells the student. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "findings/advice.h"

/* A finding of `kind` on `space` memory at line `at` against line `other`, by work-items
 * of groups g0 and g1. */
static struct finding make(enum finding_kind kind, const char *what, const char *space, int at,
			   int other, long g0, long g1)
{
	struct finding f = { .kind = kind,
			     .severity = DIAG_ERROR,
			     .what = (char *)what,
			     .space = (char *)space,
			     .at = { .line = at, .col = 5, .access = 'w' },
			     .other = { .line = other, .col = 5, .access = 'r' },
			     .nexample = 2 };
	f.example[0] = (struct entity){ .is_item = true, .group = { g0, 0, 0 } };
	f.example[1] = (struct entity){ .is_item = true, .group = { g1, 0, 0 } };
	return f;
}

static void expect(const struct finding *f, const char *source, int line, const char *text)
{
	struct advice a;
	ck_assert_msg(advice_for(f, source, &a), "A %s finding has advice.", f->what);
	ck_assert_msg(a.line == line && strstr(a.text, text) != NULL,
		      "The advice should be at line %d and say \"%s\", not at %d: %s", line, text,
		      a.line, a.text);
	advice_free(&a);
}

static const char tree[] = "kernel void k(global const float *in, local float *s)\n" /* 1 */
			   "{\n"
			   "\tsize_t lid = get_local_id(0);\n"
			   "\ts[lid] = in[get_global_id(0)];\n"
			   "\tbarrier(CLK_GLOBAL_MEM_FENCE);\n" /* 5 */
			   "\tfor (size_t d = 1; d < 64; d *= 2)\n"
			   "\t\tif (lid % (2 * d) == 0)\n"
			   "\t\t\ts[lid] += s[lid + d];\n" /* 8 */
			   "\tfloat x = s[lid ^ 1];\n"
			   "}\n";

START_TEST(test_a_barrier_fencing_the_other_memory_needs_the_flag)
{
	struct finding f = make(FINDING_RACE, "read-write", "local", 9, 4, 0, 0);
	expect(&f, tree, 5, "add CLK_LOCAL_MEM_FENCE");
}
END_TEST

START_TEST(test_a_line_racing_with_itself_in_a_loop_needs_a_barrier_in_the_loop)
{
	struct finding f = make(FINDING_RACE, "read-write", "local", 8, 8, 0, 0);
	expect(&f, tree, 8, "put barrier(CLK_LOCAL_MEM_FENCE) in the loop after line 8");
	expect(&f, tree, 8, "`for (size_t d = 1; d < 64; d *= 2)` (line 6)");
}
END_TEST

static const char plain[] = "kernel void k(global int *x, global int *y)\n" /* 1 */
			    "{\n"
			    "\tsize_t i = get_global_id(0);\n"
			    "\tx[i] = 1;\n"	   /* 4 */
			    "\ty[i] = x[i + 1];\n" /* 5 */
			    "\tx[0] = x[0] + 1;\n" /* 6 */
			    "}\n";

START_TEST(test_two_lines_of_one_group_need_a_barrier_between)
{
	struct finding f = make(FINDING_RACE, "read-write", "global", 5, 4, 0, 0);
	expect(&f, plain, 4, "put barrier(CLK_GLOBAL_MEM_FENCE) after line 4");
}
END_TEST

START_TEST(test_work_groups_need_a_second_launch)
{
	struct finding f = make(FINDING_RACE, "read-write", "global", 4, 5, 0, 1);
	expect(&f, plain, 0,
	       "no barrier orders work-groups: end the kernel after line 4 and "
	       "do line 5 in a second launch");
}
END_TEST

START_TEST(test_a_lost_update_needs_an_atomic)
{
	struct finding f = make(FINDING_RACE, "write-write", "global", 6, 6, 0, 1);
	expect(&f, plain, 0, "make the update one atomic operation");
}
END_TEST

static const char guarded[] = "kernel void k(global int *x, uint n, local int *s)\n" /* 1 */
			      "{\n"
			      "\tsize_t i = get_global_id(0);\n"
			      "\tif (i < n) {\n" /* 4 */
			      "\t\ts[0] = x[i];\n"
			      "\t\tfor (int k = 0; k < 2; k++) {\n"
			      "\t\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n" /* 7 */
			      "\t\t}\n"
			      "\t}\n"
			      "}\n";

START_TEST(test_divergence_names_the_branch_around_the_barrier)
{
	struct finding f = make(FINDING_DIVERGENCE, "barrier", NULL, 7, 0, 0, 0);
	expect(&f, guarded, 4, "for which `if (i < n)` decides so");
}
END_TEST

START_TEST(test_without_the_source_the_advice_rests_on_the_finding)
{
	struct finding f = make(FINDING_RACE, "read-write", "local", 9, 4, 0, 0);
	expect(&f, NULL, 4, "put barrier(CLK_LOCAL_MEM_FENCE) after line 4");
	struct finding api = { .kind = FINDING_API_ERROR };
	struct advice a;
	ck_assert_msg(!advice_for(&api, NULL, &a), "An API error has no advice.");
	/* Lines past the source's end (a log of another file, or a hostile one) are as good
	 * as no source, and cost no walk back over millions of lines. */
	struct finding far = make(FINDING_RACE, "read-write", "local", 67108877, 4, 0, 0);
	expect(&far, tree, 4, "put barrier(CLK_LOCAL_MEM_FENCE) after line 4");
}
END_TEST

static const char leaves_early[] =
	"kernel void k(global const int *in, uint n, local int *s)\n" /* 1 */
	"{\n"
	"\tsize_t gid = get_global_id(0);\n"
	"\tif (gid >= n) // the items past the end have nothing to add\n"
	"\t\treturn;\n" /* 5 */
	"\ts[get_local_id(0)] = in[gid];\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n" /* 7 */
	"\tfor (size_t k = 1; k < 4; k *= 2) {\n"
	"\t\ts[get_local_id(0)] += s[get_local_id(0) ^ k];\n" /* 9 */
	"\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n" /* 10 */
	"\t}\n"
	"}\n";

START_TEST(test_divergence_names_an_early_return_before_the_barrier)
{
	/* Not the loop around the barrier at line 10: the return at line 5 is the fix's
	 * place. */
	struct finding f = make(FINDING_DIVERGENCE, "barrier", NULL, 10, 0, 0, 0);
	expect(&f, leaves_early, 5, "the `return` at line 5 lets some work-items leave");
	struct finding first = make(FINDING_DIVERGENCE, "barrier", NULL, 7, 0, 0, 0);
	expect(&first, leaves_early, 5, "before the barrier at line 7");
	/* A return word in a comment or a name is none. */
	static const char named[] = "kernel void k(global int *x)\n"
				    "{\n"
				    "\tint returned = 0; // return early? no\n"
				    "\tif (get_local_id(0) < 3)\n"
				    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
				    "}\n";
	struct finding g = make(FINDING_DIVERGENCE, "barrier", NULL, 5, 0, 0, 0);
	expect(&g, named, 4, "for which `if (get_local_id(0) < 3)` decides so");
}
END_TEST

START_TEST(test_identity_advice_only_where_a_line_accumulates)
{
	struct finding sum = make(FINDING_UNINITIALIZED, "written", "local", 9, 0, 0, 0);
	expect(&sum, leaves_early, 0, "the identity of the operation, 0 for a sum");
	struct finding copy = make(FINDING_UNINITIALIZED, "written", "local", 6, 0, 0, 0);
	struct advice a;
	ck_assert_msg(advice_for(&copy, leaves_early, &a) && strstr(a.text, "identity") == NULL,
		      "A value copied, not added, gets no word of identities: %s", a.text);
	advice_free(&a);
}
END_TEST

Suite *advice_suite(void)
{
	Suite *s = suite_create("advice");
	TCase *tc = tcase_create("advice");
	tcase_add_test(tc, test_a_barrier_fencing_the_other_memory_needs_the_flag);
	tcase_add_test(tc, test_a_line_racing_with_itself_in_a_loop_needs_a_barrier_in_the_loop);
	tcase_add_test(tc, test_two_lines_of_one_group_need_a_barrier_between);
	tcase_add_test(tc, test_work_groups_need_a_second_launch);
	tcase_add_test(tc, test_a_lost_update_needs_an_atomic);
	tcase_add_test(tc, test_divergence_names_the_branch_around_the_barrier);
	tcase_add_test(tc, test_without_the_source_the_advice_rests_on_the_finding);
	tcase_add_test(tc, test_divergence_names_an_early_return_before_the_barrier);
	tcase_add_test(tc, test_identity_advice_only_where_a_line_accumulates);
	suite_add_tcase(s, tc);
	return s;
}
