/* check_instrument.c - racecheck's rewrite of a kernel file: each access of global, local
 * and constant memory at its own line as a read, write, read-and-write or atomic site,
 * stores through the helper that hashes the value, barriers closing epochs, kernels taking
 * the shadow's buffers and registering their memory, helpers taking the context, the
 * lines where they were, and a macro's access named as not checked. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "source/instrument.h"
#include "check_suites.h"

static const char source[] =
	"#define AT(p, i) p[i]\n"						  /* 1 */
	"float twice(global const float *p, size_t i) { return 2 * p[i]; }\n"	  /* 2 */
	"kernel void k(global const float *in, local float *s, global float *out,\n" /* 3 */
	"              volatile global int *count, constant float *c)\n"	  /* 4 */
	"{\n"									  /* 5 */
	"\tlocal float tile[8];\n"						  /* 6 */
	"\tsize_t lid = get_local_id(0);\n"					  /* 7 */
	"\ts[lid] = twice(in, get_global_id(0)) + c[0];\n"			  /* 8 */
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"					  /* 9 */
	"\ttile[lid % 8] += s[lid ^ 1];\n"					  /* 10 */
	"\tatomic_inc(&count[0]);\n"						  /* 11 */
	"\tif (lid == 0) {\n"							  /* 12 */
	"\t\tout[0] = AT(s, 1);\n"						  /* 13 */
	"\t\treturn;\n"								  /* 14 */
	"\t}\n"									  /* 15 */
	"\tout[1] = sizeof(in[0]);\n"						  /* 16 */
	"}\n";

static const struct instr_site *site_at(const struct instr_program *p, int line, int col)
{
	for (size_t i = 0; i < p->nsites; i++)
		if (p->sites[i].line == line && p->sites[i].col == col)
			return &p->sites[i];
	return NULL;
}

static size_t sites_on(const struct instr_program *p, int line)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nsites; i++)
		n += p->sites[i].line == line;
	return n;
}

/* Line `line` (1-based) of the rewritten program's kernel file part, after the #line. */
static char *rewritten_line(const struct instr_program *p, int line)
{
	const char *at = strstr(p->source, "\n#line 1 ");
	ck_assert_msg(at != NULL, "The runtime ends with a #line that renumbers the file.");
	at = strchr(at + 1, '\n') + 1;
	for (int l = 1; l < line && at; l++) {
		at = strchr(at, '\n');
		at = at ? at + 1 : NULL;
	}
	ck_assert_msg(at != NULL, "The rewrite keeps line %d.", line);
	return xstrndup(at, strcspn(at, "\n"));
}

/* Frees a test's rewrite and its diagnostics, and removes its kernel file. */
static void done_with(struct instr_program *p, struct diag_list *diags, char *path)
{
	instr_program_free(p);
	diag_list_free(diags);
	unlink(path);
	free(path);
}

START_TEST(test_each_access_is_a_site_at_its_line)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel(source);
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	const struct instr_site *s;
	ck_assert_msg((s = site_at(&p, 2, 59)) && s->access == 'r' && s->space == 'g',
		      "p[i] in the helper is a read of global memory at 2:59.");
	ck_assert_msg((s = site_at(&p, 8, 9)) && s->access == 'w' && s->space == 'l',
		      "s[lid] = ... is a write of local memory at its =, 8:9, where the "
		      "simulator puts the store.");
	ck_assert_msg((s = site_at(&p, 8, 41)) && s->access == 'r' && s->space == 'c',
		      "c[0] is a read of constant memory.");
	ck_assert_msg((s = site_at(&p, 9, 2)) && s->access == 'b', "The barrier is a site.");
	ck_assert_msg((s = site_at(&p, 10, 16)) && s->access == 'u' && s->space == 'l',
		      "tile[...] += is a read and a write of the local array, at its +=.");
	ck_assert_msg((s = site_at(&p, 11, 2)) && s->access == 'a' && s->space == 'g',
		      "atomic_inc(&count[0]) is an atomic access, its & no read.");
	ck_assert_msg(sites_on(&p, 11) == 1, "count[0] under & is no access of its own.");
	ck_assert_msg(sites_on(&p, 16) == 1,
		      "in[0] under sizeof is never evaluated: only out[1] is an access.");
	ck_assert_msg((s = site_at(&p, 13, 10)) && s->access == 'w',
		      "out[0] = AT(s, 1) writes out[0], whatever the macro reads.");
	ck_assert_msg(sites_on(&p, 13) == 1 && p.ngaps == 1 && p.gaps[0].line == 13,
		      "AT(s, 1), written through a macro, is named as not checked.");
	ck_assert_msg(p.nkernels == 1 && strcmp(p.kernels[0].spaces, "glggc") == 0,
		      "The kernel's parameters are global, local, global, global and constant "
		      "(%s).",
		      p.nkernels ? p.kernels[0].spaces : "none");
	ck_assert_msg(p.kernels[0].local_bytes == 32, "tile takes 32 bytes of local memory.");
	ck_assert_msg(p.granule_shift == 2, "The smallest access is 4 bytes.");

	char *line = rewritten_line(&p, 8);
	ck_assert_msg(strstr(line, "__rc_st") && strstr(line, "twice(in, get_global_id(0), __rc)"),
		      "The store goes through a typed helper, and the helper's call passes the "
		      "context on: %s",
		      line);
	free(line);
	line = rewritten_line(&p, 3);
	ck_assert_msg(strstr(line, "__rc_cells") == NULL, "The kernel's parameters go on.");
	free(line);
	line = rewritten_line(&p, 4);
	ck_assert_msg(strstr(line, "constant float *c, __global ulong *__rc_cells") != NULL,
		      "The shadow's buffers follow the kernel's own parameters: %s", line);
	free(line);
	line = rewritten_line(&p, 6);
	ck_assert_msg(strstr(line, "__rc_lreg(__rc, 1, (ulong)&tile, 32)") != NULL,
		      "The local array registers itself after its declaration, as region 1 "
		      "after the local parameter's 0: %s",
		      line);
	free(line);
	line = rewritten_line(&p, 14);
	ck_assert_msg(strstr(line, "{ __rc_exit(__rc); return; }") != NULL,
		      "A return tallies the item's barriers first: %s", line);
	free(line);
	line = rewritten_line(&p, 9);
	ck_assert_msg(strstr(line, "__rc_bar_out(__rc, CLK_LOCAL_MEM_FENCE, 0)") != NULL,
		      "The barrier closes the epoch of its fences, which every item passes "
		      "alike: %s",
		      line);
	free(line);
	done_with(&p, &diags, path);
}
END_TEST

/* vstore4 and vload_half touch memory through a pointer no subscript spells: each call
 * is a site, made through a helper that checks the elements it touches; the aligned
 * form (vloada_half) is not rewritten. */
START_TEST(test_vector_loads_and_stores_are_sites)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel("kernel void k(global float *x, global half *h)\n"
				 "{\n"
				 "\tsize_t i = get_global_id(0);\n"
				 "\tvstore4((float4)(x[i]), i + 1, x);\n"
				 "\tx[i] = vload_half(i, h);\n"
				 "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	const struct instr_site *s;
	ck_assert_msg((s = site_at(&p, 4, 2)) && s->access == 'w' && s->space == 'g',
		      "vstore4 is a write of global memory at its call, 4:2.");
	ck_assert_msg((s = site_at(&p, 5, 9)) && s->access == 'r' && s->space == 'g',
		      "vload_half is a read of global memory at its call, 5:9.");
	char *line = rewritten_line(&p, 4);
	ck_assert_msg(strstr(line, "(__rc, (float4)(") && strstr(line, "i + 1, x, "),
		      "The call keeps its arguments as written, the vector literal whole, with "
		      "the context first: %s",
		      line);
	free(line);
	ck_assert_msg(strstr(p.source, "float4 v, size_t off, __global float * p") &&
			      strstr(p.source, "(p + 4 * off), 16,"),
		      "The helper takes the value as float4 and checks 16 bytes at p + 4 * off.");
	done_with(&p, &diags, path);
}
END_TEST

/* An async copy is the work-group's: its helper checks each element it reads and writes
 * as the group's copier, with the stride on the global side, and the wait closes both
 * fences' epochs behind a barrier of the device's own. */
START_TEST(test_async_copies_are_the_groups_accesses)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel("kernel void k(global const float *in, local float *t)\n"
				 "{\n"
				 "\tevent_t e = async_work_group_strided_copy(t, in, 8, 2, 0);\n"
				 "\twait_group_events(1, &e);\n"
				 "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	const struct instr_site *s;
	ck_assert_msg((s = site_at(&p, 3, 14)) && s->access == 'c' && s->space == 'l',
		      "The copy is one site, an async copy into local memory, at its call.");
	char *line = rewritten_line(&p, 3);
	ck_assert_msg(strstr(line, "(__rc, t, in, 8, 2, 0, ") && !strstr(line, "async_work_group"),
		      "The call goes to the helper with its arguments as written: %s", line);
	free(line);
	ck_assert_msg(strstr(p.source, "__rc_copy_start(__rc)") &&
			      strstr(p.source, "__rc_g(__rc, (__global void *)(s + i * stride), 4, "
					       "site, __RC_R") &&
			      strstr(p.source, "__rc_l(__rc, (__local void *)(d + i * 1), 4, site, "
					       "__RC_W") &&
			      strstr(p.source, "return async_work_group_strided_copy(d, s, n, "
					       "stride, e);"),
		      "The helper reads the global side at the stride, writes the local side "
		      "densely, as the copier, then makes the copy.");
	line = rewritten_line(&p, 4);
	ck_assert_msg(strstr(line, "(__rc_bar_in(__rc, ") &&
			      strstr(line,
				     "wait_group_events(1, &e), barrier(CLK_LOCAL_MEM_FENCE | "
				     "CLK_GLOBAL_MEM_FENCE), __rc_bar_out(__rc, "
				     "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, 0))"),
		      "The wait is a barrier with both fences: %s", line);
	free(line);
	done_with(&p, &diags, path);
}
END_TEST

/* An access through a pointer the source cast is held to its type's alignment, which the
 * runtime checks; any other access's code is left as it was. */
START_TEST(test_accesses_through_a_cast_are_held_to_alignment)
{
	if (!instrument_available())
		return;
	char *path =
		temp_kernel("kernel void k(global char *b, global int *x)\n"
			    "{\n"
			    "\tx[get_global_id(0)] = ((global int *)(b + 1))[get_global_id(0)];\n"
			    "\t*(global short *)(b + 2) = 1;\n"
			    "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	char *line = rewritten_line(&p, 3);
	ck_assert_msg(strstr(line, "__rc_ga(__rc, 2, (__global void *)&(((global int *)(b + 1))"),
		      "The int read through a cast is held to 2^2 bytes: %s", line);
	free(line);
	ck_assert_msg(strstr(p.source, "(__rc_ctx *__rc, __global int *p, int v, uint site, int "
				       "region) { uint h = __rc_hash((__private uchar *)&v, sizeof "
				       "v); p = (__global int *)__rc_g(__rc, "),
		      "The store to x, through no cast, checks no alignment.");
	ck_assert_msg(strstr(p.source, "p = (__global short *)__rc_ga(__rc, 1, "),
		      "The short stored through a cast is held to 2^1 bytes.");
	done_with(&p, &diags, path);
}
END_TEST

/* A write of some of a vector's components is checked as the bytes they take, from the
 * first to the last; a read of one is a read of the whole vector, as the compiler loads
 * it. */
START_TEST(test_component_writes_are_their_bytes)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel("kernel void k(global float4 *v, global float *x)\n"
				 "{\n"
				 "\tsize_t i = get_global_id(0);\n"
				 "\tv[i].y = 1.0f;\n"
				 "\tv[i].lo = (float2)(x[i]);\n"
				 "\tv[i].s3 = 2.0f;\n"
				 "\tv[i].xz = (float2)(3.0f);\n"
				 "\tx[i] = v[i].x;\n"
				 "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	static const struct {
		int line;
		const char *span;
	} writes[] = { { 4, "4, 4" }, { 5, "0, 8" }, { 6, "12, 4" }, { 7, "0, 12" } };
	for (size_t w = 0; w < sizeof writes / sizeof writes[0]; w++) {
		char *line = rewritten_line(&p, writes[w].line);
		char *want =
			xasprintf("__rc_gp(__rc, (__global void *)&(v[i]), %s, ", writes[w].span);
		ck_assert_msg(strstr(line, want), "Line %d writes bytes %s of the vector: %s",
			      writes[w].line, writes[w].span, line);
		free(want);
		free(line);
	}
	char *line = rewritten_line(&p, 8);
	ck_assert_msg(strstr(line, "__rc_g(__rc, (__global void *)&(v[i]), 16, "),
		      "A component read reads the whole vector: %s", line);
	free(line);
	done_with(&p, &diags, path);
}
END_TEST

/* The line of the barrier site the guard on `line` names after its condition (`which`
 * 0: the barrier, 1: the other arm's), 0 where it names none. */
static int guarded_line(const struct instr_program *p, const char *text, int which)
{
	const char *at = strstr(text, ") ? 1 : 0, ");
	unsigned site[2] = { 0, 0 };
	if (at == NULL || sscanf(at, ") ? 1 : 0, %u, %u)", &site[0], &site[1]) != 2)
		return -1;
	unsigned s = site[which];
	if (s == 0)
		return 0;
	return s <= p->nsites && p->sites[s - 1].access == 'b' ? p->sites[s - 1].line : -1;
}

/* A branch that decides whether an item reaches a barrier has its condition compared
 * between the items of a group; one that reaches none keeps its own. */
START_TEST(test_branches_that_guard_barriers_are_compared)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel("kernel void k(global int *x, uint n)\n"   /* 1 */
				 "{\n"					    /* 2 */
				 "\tsize_t lid = get_local_id(0);\n"	    /* 3 */
				 "\tif (lid >= n)\n"			    /* 4 */
				 "\t\treturn;\n"			    /* 5 */
				 "\tbarrier(CLK_LOCAL_MEM_FENCE);\n"	    /* 6 */
				 "\tfor (size_t k = 0; k < lid; k++) {\n"   /* 7 */
				 "\t\tif (x[k] == 0)\n"			    /* 8 */
				 "\t\t\tcontinue;\n"			    /* 9 */
				 "\t\tx[lid] += 1;\n"			    /* 10 */
				 "\t}\n"				    /* 11 */
				 "\twhile (lid < n) {\n"		    /* 12 */
				 "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"	    /* 13 */
				 "\t\tbarrier(CLK_GLOBAL_MEM_FENCE);\n"	    /* 14 */
				 "\t\tn--;\n"				    /* 15 */
				 "\t}\n"				    /* 16 */
				 "\tif (lid % 2)\n"			    /* 17 */
				 "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"	    /* 18 */
				 "\telse\n"				    /* 19 */
				 "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"	    /* 20 */
				 "\tfor (size_t s = n; s > 0; s >>= 1) {\n" /* 21 */
				 "\t\tif (lid < s)\n"			    /* 22 */
				 "\t\t\tx[lid] += x[lid + s];\n"	    /* 23 */
				 "\t\tbarrier(CLK_GLOBAL_MEM_FENCE);\n"	    /* 24 */
				 "\t}\n"				    /* 25 */
				 "\tif (n > 4) {\n"			    /* 26 */
				 "\t\tif (lid == 0)\n"			    /* 27 */
				 "\t\t\treturn;\n"			    /* 28 */
				 "\t} else {\n"				    /* 29 */
				 "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"	    /* 30 */
				 "\t}\n"				    /* 31 */
				 "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	char *line = rewritten_line(&p, 4);
	ck_assert_msg(strstr(line, "__rc_branch(__rc, (lid >= n) ? 1 : 0, ") &&
			      guarded_line(&p, line, 0) == 6 && guarded_line(&p, line, 1) == 0,
		      "An early return skips the barrier at line 6: %s", line);
	free(line);
	for (int l = 7; l <= 9; l++) {
		line = rewritten_line(&p, l);
		ck_assert_msg(strstr(line, "__rc_branch") == NULL,
			      "A loop with no barrier, and a continue in it, decide none: %s",
			      line);
		free(line);
	}
	line = rewritten_line(&p, 12);
	ck_assert_msg(
		strstr(line, "__rc_branch_also(__rc, __rc_branch(__rc, (lid < n) ? 1 : 0, ") &&
			guarded_line(&p, line, 0) == 13,
		"A loop's condition guards each barrier of its body, 13 and 14: %s", line);
	free(line);
	line = rewritten_line(&p, 17);
	ck_assert_msg(guarded_line(&p, line, 0) == 18 && guarded_line(&p, line, 1) == 20,
		      "Barriers in both arms name each other: %s", line);
	free(line);
	line = rewritten_line(&p, 21);
	ck_assert_msg(strstr(line, "__rc_branch(__rc, (s > 0) ? 1 : 0, ") &&
			      guarded_line(&p, line, 0) == 24 && strstr(line, "s >>= 1)"),
		      "A for loop's condition, its part between the semicolons, is compared "
		      "(n varies, as some items count it down at line 15): %s",
		      line);
	free(line);
	line = rewritten_line(&p, 22);
	ck_assert_msg(strstr(line, "__rc_branch") == NULL,
		      "A branch around accesses alone decides no barrier: %s", line);
	free(line);
	line = rewritten_line(&p, 27);
	ck_assert_msg(strstr(line, "__rc_branch") == NULL,
		      "A return skips no barrier of the other arm of an if it is in: %s", line);
	free(line);
	line = rewritten_line(&p, 26);
	ck_assert_msg(guarded_line(&p, line, 0) == 30,
		      "The if whose other arm holds the barrier is compared: %s", line);
	free(line);
	done_with(&p, &diags, path);
}
END_TEST

START_TEST(test_uniform_conditions_are_not_compared)
{
	if (!instrument_available())
		return;
	char *path =
		temp_kernel("kernel void k(global int *x, uint n, local int *t)\n" /* 1 */
			    "{\n"						   /* 2 */
			    "\tsize_t lid = get_local_id(0);\n"			   /* 3 */
			    "\tfor (size_t s = get_local_size(0) / 2; s > 0; s >>= 1)\n"
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 5 */
			    "\tuint m = n;\n"			   /* 6 */
			    "\tif (lid == 0)\n"			   /* 7 */
			    "\t\tm = 1;\n"			   /* 8 */
			    "\tif (m > 2)\n"			   /* 9 */
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 10 */
			    "\tuint k = n;\n"			   /* 11 */
			    "\tfor (uint i = 0; i < n; i++) {\n"   /* 12 */
			    "\t\tif (x[i] > 0)\n"		   /* 13 */
			    "\t\t\tcontinue;\n"			   /* 14 */
			    "\t\tk++;\n"			   /* 15 */
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 16 */
			    "\t}\n"				   /* 17 */
			    "\tif (k > 3)\n"			   /* 18 */
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 19 */
			    "\tuint a = n, g = get_group_id(0);\n" /* 20 */
			    "\tx[g] = *(&a);\n"			   /* 21 */
			    "\tif (a > 1)\n"			   /* 22 */
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 23 */
			    "\tif (t[0] > 0 || g > n)\n"	   /* 24 */
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 25 */
			    "\twhile (g < n) {\n"		   /* 26 */
			    "\t\tif (lid > n)\n"		   /* 27 */
			    "\t\t\tbreak;\n"			   /* 28 */
			    "\t\tg++;\n"			   /* 29 */
			    "\t\tbarrier(CLK_LOCAL_MEM_FENCE);\n"  /* 30 */
			    "\t}\n"				   /* 31 */
			    "\tbarrier(lid % 2 ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE);\n"
			    "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	struct {
		int line;
		bool compared;
		const char *why;
	} want[] = {
		{ 4, false, "a stride made of the group's size and halved alike by all" },
		{ 9, true, "a variable one item alone sets at line 8" },
		{ 12, false, "a loop counter a continue does not skip the increment of" },
		{ 13, true, "a value read from memory" },
		{ 18, true, "a count the continue at line 14 skips for some items" },
		{ 22, true, "a variable whose address is taken" },
		{ 24, true, "memory, on either side of ||" },
		{ 26, true, "a counter that a break taken by some items leaves behind" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char *line = rewritten_line(&p, want[i].line);
		ck_assert_msg((strstr(line, "__rc_branch") != NULL) == want[i].compared,
			      "Line %d, %s, is %s: %s", want[i].line, want[i].why,
			      want[i].compared ? "compared" : "not compared", line);
		free(line);
	}
	char *line = rewritten_line(&p, 30);
	ck_assert_msg(strstr(line, "CLK_LOCAL_MEM_FENCE, 0))") != NULL,
		      "A barrier's constant flags are not compared: %s", line);
	free(line);
	line = rewritten_line(&p, 32);
	ck_assert_msg(strstr(line, "CLK_GLOBAL_MEM_FENCE, 1))") != NULL,
		      "Flags that differ by item are compared: %s", line);
	free(line);
	done_with(&p, &diags, path);
}
END_TEST

START_TEST(test_indexes_into_arrays_of_known_size_are_checked)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel("typedef struct { int id; float w[3]; } rec;\n"	/* 1 */
				 "kernel void k(global rec *r, global int *x, int n)\n" /* 2 */
				 "{\n"							/* 3 */
				 "\tint a[4];\n"					/* 4 */
				 "\tlocal int t[8];\n"					/* 5 */
				 "\ta[n] = 1;\n"					/* 6 */
				 "\tx[0] = a[n + 1];\n"					/* 7 */
				 "\tx[1] = r[n].w[2];\n"				/* 8 */
				 "\tt[n] = 2;\n"					/* 9 */
				 "\tglobal int *end = &a[4] == 0 ? x : x + 1;\n"	/* 10 */
				 "\tx[n] = end[0];\n"					/* 11 */
				 "}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) == 0, "The kernel is rewritten.");
	char *line = rewritten_line(&p, 6);
	ck_assert_msg(strstr(line, "a[__rc_index(__rc, (long)(n), 4, ") != NULL &&
			      strstr(line, ", 3)]") != NULL,
		      "An index into a private array is held to its 4 elements: %s", line);
	free(line);
	line = rewritten_line(&p, 7);
	ck_assert_msg(strstr(line, "(long)(n + 1), 4, ") != NULL,
		      "so is one the array is read at: %s", line);
	free(line);
	line = rewritten_line(&p, 8);
	ck_assert_msg(strstr(line, "w[__rc_index(__rc, (long)(2), 3, ") != NULL &&
			      strstr(line, ", 0)]") != NULL,
		      "A struct's array field in a buffer is held to its 3: %s", line);
	free(line);
	line = rewritten_line(&p, 9);
	ck_assert_msg(strstr(line, "__rc_index") == NULL,
		      "A local array the kernel declares is a region its accesses are held "
		      "to: %s",
		      line);
	free(line);
	line = rewritten_line(&p, 10);
	ck_assert_msg(strstr(line, "__rc_index") == NULL,
		      "&a[4], one past the end, reads nothing: %s", line);
	free(line);
	done_with(&p, &diags, path);
}
END_TEST

START_TEST(test_a_kernel_clang_cannot_parse_gives_its_errors)
{
	if (!instrument_available())
		return;
	char *path = temp_kernel("kernel void k(global int *p)\n{\n\tp[0] = q;\n}\n");
	struct instr_program p;
	struct diag_list diags = { 0 };
	ck_assert_msg(instrument_program(path, "", &p, &diags) < 0, "The rewrite fails.");
	ck_assert_msg(diags.count >= 1 && diags.items[0].line == 3,
		      "clang's error stands at its line, 3.");
	ck_assert_msg(p.source == NULL && p.nsites == 0, "Nothing is left of the program.");
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

Suite *instrument_suite(void)
{
	Suite *s = suite_create("instrument");
	TCase *tc = tcase_create("instrument");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_each_access_is_a_site_at_its_line);
	tcase_add_test(tc, test_a_kernel_clang_cannot_parse_gives_its_errors);
	tcase_add_test(tc, test_vector_loads_and_stores_are_sites);
	tcase_add_test(tc, test_async_copies_are_the_groups_accesses);
	tcase_add_test(tc, test_accesses_through_a_cast_are_held_to_alignment);
	tcase_add_test(tc, test_component_writes_are_their_bytes);
	tcase_add_test(tc, test_branches_that_guard_barriers_are_compared);
	tcase_add_test(tc, test_uniform_conditions_are_not_compared);
	tcase_add_test(tc, test_indexes_into_arrays_of_known_size_are_checked);
	suite_add_tcase(s, tc);
	return s;
}
