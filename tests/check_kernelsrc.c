/* check_kernelsrc.c - a kernel's source read by libclang: parameters at their places and
 * forms, structs laid out exactly (packed, nested, arrays, fields typed by macros and
 * typedefs, after the build options' -D), local arrays, and the errors of a file that
 * does not parse at their lines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "source/kernelsrc.h"
#include "check_suites.h"

static const char source[] =
	"#define NW 4\n"								/* 1 */
	"typedef float weight_t;\n"							/* 2 */
	"typedef struct __attribute__((packed)) { char tag; float value; } packed_t;\n" /* 3 */
	"struct inner { int a; float b[3]; };\n"					/* 4 */
	"struct outer { struct inner in; int   count ; weight_t  weights [ NW ]; };\n"	/* 5 */
	"typedef struct { float4 pos; float mass; } particle;\n"			/* 6 */
	"kernel void k(global packed_t *ps, global struct outer *os,\n"			/* 7 */
	"              struct outer o, read_only image2d_t im, sampler_t s,\n"		/* 8 */
	"              global particle *parts, float f)\n"				/* 9 */
	"{\n"										/* 10 */
	"\tlocal float tile[TILE][TILE + 1];\n"						/* 11 */
	"\tparts[0].mass = f + o.count;\n"						/* 12 */
	"}\n";

static const struct record_field *field(const struct record *r, const char *name)
{
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].name, name) == 0)
			return &r->fields[i];
	return NULL;
}

START_TEST(test_parameters_structs_and_local_arrays)
{
	if (!kernelsrc_available())
		return;
	char *path = temp_kernel(source);
	struct kernel_source ks;
	struct diag_list diags = { 0 };
	ck_assert_msg(kernelsrc_read(path, "k", "-D TILE=16", &ks, &diags) == 0,
		      "The kernel reads, with TILE from -D.");
	ck_assert_msg(ks.nparams == 7 && ks.line == 7, "Seven parameters, the kernel at line 7.");
	const struct src_param *p = ks.params;
	ck_assert_msg(strcmp(p[3].name, "im") == 0 && p[3].form == SRC_IMAGE && p[3].line == 8 &&
			      p[3].col == 51,
		      "The image is named at its own line and column (8:51, not %d:%d).", p[3].line,
		      p[3].col);
	ck_assert_msg(p[4].form == SRC_SAMPLER && p[6].form == SRC_VALUE && p[6].record == NULL,
		      "A sampler is one; a float is a plain value.");

	const struct record *packed = p[0].record;
	ck_assert_msg(p[0].form == SRC_POINTER && packed && packed->size == 5 &&
			      packed->align == 1 && field(packed, "value")->offset == 1,
		      "A packed struct is 5 bytes, its float at byte 1.");
	const struct record *outer = p[1].record;
	ck_assert_msg(outer && outer->size == 36 && outer->nfields == 9,
		      "struct outer flattens to 9 fields in 36 bytes, not %zu in %zu.",
		      outer ? outer->nfields : 0, outer ? outer->size : 0);
	ck_assert_msg(field(outer, "in.b[2]") && field(outer, "in.b[2]")->offset == 12 &&
			      field(outer, "weights[3]") &&
			      field(outer, "weights[3]")->offset == 32 &&
			      field(outer, "weights[3]")->type == ELEM_FLOAT,
		      "Nested fields and array elements have their names and offsets, a typedef's "
		      "and a macro's types resolved.");
	ck_assert_msg(p[2].record && p[2].record->size == 36,
		      "The struct by value is laid out too.");
	const struct record *part = p[5].record;
	ck_assert_msg(part && part->size == 32 && field(part, "pos")->lanes == 4 &&
			      record_is_natural(part),
		      "A typedef'd struct of a float4 and a float is the natural 32 bytes.");
	ck_assert_msg(!record_is_natural(packed) && record_is_natural(outer),
		      "A packed layout is not the natural one of its fields; this nested one, "
		      "flattened, is.");

	ck_assert_msg(ks.nlocals == 1 && ks.locals[0].ndims == 2 && ks.locals[0].dims[0] == 16 &&
			      ks.locals[0].dims[1] == 17 && ks.locals[0].line == 11,
		      "The local tile is 16 x 17, at line 11.");
	kernel_source_free(&ks);
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_a_nested_struct_keeps_its_padding)
{
	if (!kernelsrc_available())
		return;
	char *path = temp_kernel("struct inner { int a; char c; };\n"
				 "struct outer { struct inner in; char d; };\n"
				 "kernel void k(global struct outer *o) { o[0].d = 1; }\n");
	struct kernel_source ks;
	struct diag_list diags = { 0 };
	ck_assert_msg(kernelsrc_read(path, "k", NULL, &ks, &diags) == 0, "It reads.");
	const struct record *r = ks.params[0].record;
	ck_assert_msg(r && r->size == 12 && field(r, "d")->offset == 8 && !record_is_natural(r),
		      "d follows the padded inner struct at byte 8 of 12, which the flat fields "
		      "alone would not give.");
	kernel_source_free(&ks);
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_errors_at_their_lines)
{
	if (!kernelsrc_available())
		return;
	char *path = temp_kernel(source);
	struct kernel_source ks;
	struct diag_list diags = { 0 };
	ck_assert_msg(kernelsrc_read(path, "k", "", &ks, &diags) < 0 && diags.count > 0 &&
			      diags.items[0].line == 11 &&
			      strstr(diags.items[0].message, "TILE") != NULL,
		      "Without -D TILE the tile's line is the error.");
	diag_list_free(&diags);
	ck_assert_msg(kernelsrc_read(path, "nowhere", "-D TILE=4", &ks, &diags) < 0 &&
			      strstr(diags.items[0].message, "no kernel named 'nowhere'") != NULL,
		      "A kernel the file lacks is said so.");
	diag_list_free(&diags);
	unlink(path);
	free(path);
}
END_TEST

Suite *kernelsrc_suite(void)
{
	Suite *s = suite_create("kernelsrc");
	TCase *tc = tcase_create("kernelsrc");
	tcase_add_test(tc, test_parameters_structs_and_local_arrays);
	tcase_add_test(tc, test_a_nested_struct_keeps_its_padding);
	tcase_add_test(tc, test_errors_at_their_lines);
	suite_add_tcase(s, tc);
	return s;
}
