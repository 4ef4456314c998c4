/* check_mutsites.c - mutation sites found in a kernel's syntax: every operator at its
 * construct's own characters, nothing inside a macro or in an if with an else, the
 * mutant texts themselves, and the errors of a file clang cannot parse at their lines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "source/mutsites.h"
#include "check_suites.h"

static const char source[] =
	"#define SYNC barrier(CLK_LOCAL_MEM_FENCE)\n"					/* 1 */
	"kernel void k(global int *in, local int *s, global int *out,\n"		/* 2 */
	"              volatile global int *count)\n"					/* 3 */
	"{\n"										/* 4 */
	"\tsize_t lid = get_local_id(0);\n"						/* 5 */
	"\ts[lid] = in[get_global_id(0)];\n"						/* 6 */
	"\tbarrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"			/* 7 */
	"\tfor (size_t w = get_local_size(0) / 2; w > 0; w >>= 1) {\n"			/* 8 */
	"\t\tif (lid < w)\n"								/* 9 */
	"\t\t\ts[lid] += s[lid + w];\n"						/* 10 */
	"\t\tSYNC;\n"									/* 11 */
	"\t}\n"										/* 12 */
	"\tfor (size_t d = 1; d < 64; d <<= 1)\n"					/* 13 */
	"\t\tatomic_add(count, 1);\n"							/* 14 */
	"\tif (lid == 0) out[0] = s[0]; else out[1] = 0;\n"				/* 15 */
	"}\n";

/* The mutation of operator op at line:col whose replacement is `replacement`, or NULL. */
static const struct mutation *find(const struct mutation_list *l, enum mut_operator op, int line,
				   int col, const char *replacement)
{
	for (size_t i = 0; i < l->count; i++)
		if (l->items[i].op == op && l->items[i].line == line && l->items[i].col == col &&
		    strcmp(l->items[i].replacement, replacement) == 0)
			return &l->items[i];
	return NULL;
}

static size_t count_op(const struct mutation_list *l, enum mut_operator op, int line)
{
	size_t n = 0;
	for (size_t i = 0; i < l->count; i++)
		n += l->items[i].op == op && l->items[i].line == line;
	return n;
}

START_TEST(test_every_operator_at_its_construct)
{
	if (!mutsites_available())
		return;
	char *path = temp_kernel(source);
	struct mutation_list l;
	struct diag_list diags = { 0 };
	ck_assert_msg(mutsites_find(path, "", ~0u, NULL, 0, &l, &diags) == 0, "The kernel parses.");
	ck_assert_msg(find(&l, MUT_BARRIER, 7, 2, "(void)0") != NULL,
		      "The barrier at 7:2 is removed whole.");
	ck_assert_msg(find(&l, MUT_FENCE, 7, 10, "CLK_GLOBAL_MEM_FENCE") &&
			      find(&l, MUT_FENCE, 7, 10, "CLK_LOCAL_MEM_FENCE"),
		      "Each of its two fence flags is dropped in turn.");
	ck_assert_msg(count_op(&l, MUT_BARRIER, 11) == 0 && count_op(&l, MUT_FENCE, 11) == 0,
		      "A barrier written through a macro (SYNC at line 11) is left alone.");
	ck_assert_msg(find(&l, MUT_ID, 5, 15, "get_global_id") &&
			      find(&l, MUT_ID, 5, 15, "get_group_id") &&
			      find(&l, MUT_ID, 6, 14, "get_local_id"),
		      "get_local_id and get_global_id swap, and become get_group_id.");
	ck_assert_msg(find(&l, MUT_INDEX, 10, 16, "(lid + w) + 1") &&
			      find(&l, MUT_INDEX, 10, 16, "(lid + w) - 1"),
		      "s[lid + w]'s index is moved by one either way.");
	ck_assert_msg(find(&l, MUT_BOUND, 9, 11, "<=") && find(&l, MUT_BOUND, 8, 43, ">="),
		      "lid < w becomes <=, w > 0 becomes >=.");
	ck_assert_msg(find(&l, MUT_GUARD, 9, 7, "1") != NULL, "if (lid < w) is removed.");
	ck_assert_msg(count_op(&l, MUT_GUARD, 15) == 0, "An if with an else guards nothing.");
	ck_assert_msg(find(&l, MUT_STEP, 8, 48, "2") && find(&l, MUT_STEP, 13, 29, "*= 3"),
		      "w >>= 1 quarters, d <<= 1 triples.");
	/* The mistakes a class shows. */
	ck_assert_msg(find(&l, MUT_EMPTY, 4, 1, "{\n}") != NULL, "The kernel's body is emptied.");
	ck_assert_msg(find(&l, MUT_WRITE, 15, 16, "(void)0") != NULL &&
			      count_op(&l, MUT_WRITE, 6) == 0 && count_op(&l, MUT_WRITE, 10) == 0,
		      "The write to global out at 15:16 is removed; those to local s are not.");
	ck_assert_msg(find(&l, MUT_LOCKSTEP, 7, 2,
			   "(get_local_size(0) * get_local_size(1) * get_local_size(2) > 32 ? "
			   "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) : (void)0)") != NULL,
		      "The barrier at 7:2 is taken only by work-groups of more than 32 items.");
	ck_assert_msg(find(&l, MUT_RETURN, 9, 3, "{ if (!(lid < w)) return; s[lid] += s[lid + w]; }") !=
			      NULL,
		      "if (lid < w), with a barrier after it, becomes an early return.");
	ck_assert_msg(count_op(&l, MUT_RETURN, 15) == 0,
		      "No return is made where no barrier follows.");
	const struct mutation *atomic =
		find(&l, MUT_ATOMIC, 14, 3, "((*(count) += (1)) - (1))");
	ck_assert_msg(atomic != NULL, "atomic_add(count, 1) becomes its plain form.");
	size_t len = strlen(source);
	char *mutant = mutation_apply(source, len, atomic);
	ck_assert_msg(strstr(mutant, "\t\t((*(count) += (1)) - (1));\n") != NULL &&
			      strlen(mutant) == len - strlen("atomic_add(count, 1)") +
							   strlen("((*(count) += (1)) - (1))"),
		      "The mutant differs from the source there alone.");
	free(mutant);
	mutation_list_free(&l);
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_operators_pick_the_mutations)
{
	if (!mutsites_available())
		return;
	char *path = temp_kernel(source);
	unsigned ops;
	char *why = NULL;
	ck_assert_msg(mut_operators_parse("barrier,step", &ops, &why) == 0, "Two names parse.");
	struct mutation_list l;
	struct diag_list diags = { 0 };
	ck_assert(mutsites_find(path, "", ops, NULL, 0, &l, &diags) == 0);
	for (size_t i = 0; i < l.count; i++)
		ck_assert_msg(l.items[i].op == MUT_BARRIER || l.items[i].op == MUT_STEP,
			      "Only barrier and step mutations, not %s.",
			      mut_operator_name(l.items[i].op));
	ck_assert_msg(l.count == 3, "One barrier, two steps: %zu.", l.count);
	ck_assert_msg(mut_operators_parse("barrier,fences", &ops, &why) < 0 &&
			      strstr(why, "no operator is called 'fences'"),
		      "An unknown name is said.");
	free(why);
	mutation_list_free(&l);
	unlink(path);
	free(path);
}
END_TEST

/* A file's other kernels are code the subject never runs; its helpers are called. */
START_TEST(test_only_the_kernels_run_and_their_helpers)
{
	if (!mutsites_available())
		return;
	char *path = temp_kernel("int twice(int v) { return v < 0 ? 0 : 2 * v; }\n"	 /* 1 */
				 "kernel void used(global int *p)\n"			 /* 2 */
				 "{ p[0] = twice(p[1]); }\n"				 /* 3 */
				 "__kernel void unused(global int *p)\n"		 /* 4 */
				 "{ barrier(CLK_GLOBAL_MEM_FENCE); p[get_local_id(0)] = 0; }\n");
	char *used[] = { "used" };
	struct mutation_list l;
	struct diag_list diags = { 0 };
	ck_assert(mutsites_find(path, "", ~0u, used, 1, &l, &diags) == 0);
	size_t in_used = 0, in_helper = 0, in_unused = 0;
	for (size_t i = 0; i < l.count; i++) {
		in_helper += l.items[i].line == 1;
		in_used += l.items[i].line == 3;
		in_unused += l.items[i].line == 5;
	}
	/* In the kernel run: two indices either way, its write removed, its body emptied. */
	ck_assert_msg(in_used == 6 && in_helper == 1 && in_unused == 0,
		      "The kernel run (6) and its helper (1) are mutated, the other kernel not "
		      "(%zu, %zu, %zu).",
		      in_used, in_helper, in_unused);
	mutation_list_free(&l);
	unlink(path);
	free(path);
}
END_TEST

/* A branch the compiler folds away is code no run reaches, and a guard that is always
 * true guards nothing: neither is mutated. */
START_TEST(test_code_no_run_reaches_is_left_alone)
{
	if (!mutsites_available())
		return;
	char *path = temp_kernel("kernel void k(global int *p)\n"		/* 1 */
				 "{\n"						/* 2 */
				 "\tif (SIZE >= 256)\n"			/* 3 */
				 "\t\tp[get_local_id(0)] = 1;\n"		/* 4 */
				 "\tif (SIZE >= 128) {\n"			/* 5 */
				 "\t\tp[0] = 2;\n"				/* 6 */
				 "\t}\n"					/* 7 */
				 "}\n");
	struct mutation_list l;
	struct diag_list diags = { 0 };
	ck_assert(mutsites_find(path, "-D SIZE=128", ~0u, NULL, 0, &l, &diags) == 0);
	size_t dead = 0, guards = 0, live = 0;
	for (size_t i = 0; i < l.count; i++) {
		dead += l.items[i].line == 3 || l.items[i].line == 4;
		guards += l.items[i].op == MUT_GUARD;
		live += l.items[i].line == 6;
	}
	ck_assert_msg(dead == 0 && guards == 0 && live == 3,
		      "Nothing in the dead branch (%zu), no guard of a constant (%zu), the live "
		      "branch's index either way and its write (%zu).",
		      dead, guards, live);
	mutation_list_free(&l);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_a_kernel_clang_cannot_parse_gives_its_errors_and_no_mutants)
{
	if (!mutsites_available())
		return;
	char *path = temp_kernel("kernel void k(global int *p)\n{\n\tp[0] = q;\n}\n");
	struct mutation_list l;
	struct diag_list diags = { 0 };
	ck_assert_msg(mutsites_find(path, "", ~0u, NULL, 0, &l, &diags) < 0 && l.count == 0,
		      "No mutants of a kernel that does not parse.");
	ck_assert_msg(diags.count >= 1 && diags.items[0].line == 3 && diags.items[0].col == 9 &&
			      strstr(diags.items[0].message, "undeclared identifier 'q'"),
		      "Its error is at 3:9.");
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

Suite *mutsites_suite(void)
{
	Suite *s = suite_create("mutsites");
	TCase *tc = tcase_create("mutsites");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_operator_at_its_construct);
	tcase_add_test(tc, test_operators_pick_the_mutations);
	tcase_add_test(tc, test_only_the_kernels_run_and_their_helpers);
	tcase_add_test(tc, test_code_no_run_reaches_is_left_alone);
	tcase_add_test(tc, test_a_kernel_clang_cannot_parse_gives_its_errors_and_no_mutants);
	suite_add_tcase(s, tc);
	return s;
}
