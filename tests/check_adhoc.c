/* check_adhoc.c - clharness check without a device: binding --arg texts to a kernel's
 * parameters, which input sets apply, and the case text each set gives. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "case/testcase.h"
#include "check/adhoc.h"
#include "source/structdef.h"
#include "check_suites.h"

/* reduce(global const float *in, local float *scratch, global float *out, uint n) */
static struct kernel_param params[] = {
	{ "in", "float*", ARG_BUFFER, true, false },
	{ "scratch", "float*", ARG_LOCAL, false, false },
	{ "out", "float*", ARG_BUFFER, false, false },
	{ "n", "uint", ARG_SCALAR, false, false },
};
static const struct kernel_sig sig = { .params = params, .count = 4 };

static struct adhoc_request request(char **specs, size_t nspecs)
{
	return (struct adhoc_request){ .kernel_path = "kernels/reduce/halving.cl",
				       .kernel = "reduce",
				       .global = shape_1d(256),
				       .local = shape_1d(32),
				       .specs = specs,
				       .nspecs = nspecs };
}

START_TEST(test_unbound_parameters_come_from_the_signature)
{
	struct adhoc_request rq = request(NULL, 0);
	struct adhoc_binding b;
	struct diag_list diags = { 0 };
	ck_assert_msg(adhoc_bind(&rq, &sig, &b, &diags) == 0, "No --arg is no mistake.");
	for (size_t p = 0; p < 4; p++)
		ck_assert_msg(b.spec_of[p] == -1, "Parameter %zu comes from the signature.", p);
	ck_assert_msg(!adhoc_set_applies(SET_SCALAR_0, &sig, &b) &&
			      adhoc_set_applies(SET_SCALAR_TAIL, &sig, &b),
		      "n holds the elements, as its name says: the scalar sets leave it as the "
		      "launch has it, all but the scalar-tail set's size half a group short.");
	int lines[1];
	char *text = adhoc_case_text(&rq, &sig, &b, SET_RANDOM, rq.kernel_path, lines);
	ck_assert_msg(strstr(text, "  - {name: in, buffer: float, count: N, init: {random_int: "
				   "[-8, 8]}}  # from the signature\n") &&
			      strstr(text, "  - {name: scratch, local: float, count: L}") &&
			      strstr(text, "  - {name: n, scalar: uint, value: N}") &&
			      strstr(text, "sim_sizes: [256]\nlocal: [32]\nglobal: N\n"),
		      "The random set fills buffers with whole numbers and scalars with N:\n%s",
		      text);
	free(text);
	text = adhoc_case_text(&rq, &sig, &b, SET_ZEROS, rq.kernel_path, lines);
	ck_assert_msg(strstr(text, "{name: out, buffer: float, count: N, init: {fill: 0}}"),
		      "The zeros set fills with 0:\n%s", text);
	free(text);
	text = adhoc_case_text(&rq, &sig, &b, SET_SCALAR_TAIL, rq.kernel_path, lines);
	ck_assert_msg(strstr(text, "{name: n, scalar: uint, value: N - L / 2}"),
		      "The scalar-tail set makes the elements half a group short:\n%s", text);
	free(text);
	struct chosen_value *chosen;
	size_t nchosen = adhoc_choices(&rq, &sig, &b, &chosen);
	ck_assert_msg(nchosen == 4 && strcmp(chosen[3].name, "n") == 0 &&
			      strcmp(chosen[3].value, "256") == 0 &&
			      strstr(chosen[3].why, "as its name says") &&
			      strcmp(chosen[1].value, "32 floats") == 0 &&
			      strstr(chosen[1].override, "{name: scratch, local: float"),
		      "Each chosen value is said with why and the --arg that gives another.");
	chosen_values_free(chosen, nchosen);
	adhoc_binding_free(&b);
}
END_TEST

/* Scalars are placed by their names and the launch's dimensions; where no name says,
 * none is placed. */
START_TEST(test_scalars_placed_by_name)
{
	ck_assert(adhoc_scalar_role("width", 2) == ROLE_EXTENT_X);
	ck_assert(adhoc_scalar_role("numCols", 2) == ROLE_EXTENT_X);
	ck_assert(adhoc_scalar_role("height", 2) == ROLE_EXTENT_Y);
	ck_assert(adhoc_scalar_role("num_rows", 2) == ROLE_EXTENT_Y);
	ck_assert_msg(adhoc_scalar_role("rows", 1) == ROLE_UNPLACED,
		      "A 1-D launch has no second extent to give rows.");
	ck_assert(adhoc_scalar_role("nz", 3) == ROLE_EXTENT_Z);
	ck_assert(adhoc_scalar_role("n", 2) == ROLE_ELEMENTS);
	ck_assert(adhoc_scalar_role("Count", 1) == ROLE_ELEMENTS);
	ck_assert(adhoc_scalar_role("stride", 1) == ROLE_UNPLACED);
	ck_assert(adhoc_scalar_role("k", 2) == ROLE_UNPLACED);
}
END_TEST

START_TEST(test_specs_bind_by_name_then_in_order)
{
	char *specs[] = { "{name: n, scalar: uint, value: 1000}",
			  "{buffer: float, count: N, init: {random: [0, 10]}}" };
	struct adhoc_request rq = request(specs, 2);
	struct adhoc_binding b;
	struct diag_list diags = { 0 };
	ck_assert_msg(adhoc_bind(&rq, &sig, &b, &diags) == 0, "Both bind.");
	ck_assert_msg(b.spec_of[3] == 0 && b.spec_of[0] == 1 && b.spec_of[1] == -1 &&
			      b.spec_of[2] == -1,
		      "n by its name; the nameless buffer to the first parameter left.");
	ck_assert_msg(!adhoc_set_applies(SET_SCALAR_0, &sig, &b),
		      "With every scalar given, the scalar sets add nothing.");
	int lines[2] = { 0, 0 };
	char *text = adhoc_case_text(&rq, &sig, &b, SET_RANDOM, rq.kernel_path, lines);
	ck_assert_msg(strstr(text, "  - {name: in, buffer: float, count: N, init: {random: [0, "
				   "10]}}\n"),
		      "A nameless spec gets its parameter's name:\n%s", text);
	/* Line numbers: the spec of line lines[i] is that spec. */
	const char *p = text;
	for (int l = 1; l < lines[0]; l++)
		p = strchr(p, '\n') + 1;
	ck_assert_msg(strncmp(p, "  - {name: n, scalar: uint, value: 1000}", 40) == 0,
		      "lines[0] is where --arg 1 stands.");
	/* Loaded as if it stood in tests/data/cases, it finds kernels/copy.cl above it. */
	free(text);
	text = adhoc_case_text(&rq, &sig, &b, SET_RANDOM, "kernels/copy.cl", lines);
	struct diag_list load = { 0 };
	char *label = test_data_path("cases/generated.yaml");
	struct test_case *tc = case_load_text(label, text, &load);
	ck_assert_msg(tc != NULL, "The case text loads: %s",
		      load.count ? load.items[0].message : "");
	ck_assert_msg(tc->nbuffers == 2 && tc->steps[0].nargs == 4, "Two buffers, four arguments.");
	case_free(tc);
	free(label);
	free(text);
	adhoc_binding_free(&b);
}
END_TEST

START_TEST(test_mistakes_name_their_arg)
{
	char *wrong_kind[] = { "{local: float, count: L}" };
	struct adhoc_request rq = request(wrong_kind, 1);
	struct adhoc_binding b;
	struct diag_list diags = { 0 };
	ck_assert_msg(adhoc_bind(&rq, &sig, &b, &diags) < 0, "A local for a buffer is refused.");
	ck_assert_str_eq(diags.items[0].file, "--arg 1");
	ck_assert_msg(strstr(diags.items[0].message, "gives a local buffer, but parameter 1 of "
						     "reduce (float* in) is a buffer"),
		      "The message says both kinds: %s", diags.items[0].message);
	adhoc_binding_free(&b);
	diag_list_free(&diags);

	char *too_many[] = { "{buffer: float, count: N}", "{local: float, count: L}",
			     "{buffer: float, count: N}", "{scalar: uint, value: 1}",
			     "{scalar: uint, value: 2}" };
	rq = request(too_many, 5);
	ck_assert_msg(adhoc_bind(&rq, &sig, &b, &diags) < 0, "Five arguments for four refused.");
	ck_assert_msg(strcmp(diags.items[0].file, "--arg 5") == 0 &&
			      strstr(diags.items[0].message, "one argument too many"),
		      "The fifth is the one too many.");
	adhoc_binding_free(&b);
	diag_list_free(&diags);

	char *not_yaml[] = { "{buffer: float, count: [N}" };
	rq = request(not_yaml, 1);
	ck_assert_msg(adhoc_bind(&rq, &sig, &b, &diags) < 0 &&
			      strcmp(diags.items[0].file, "--arg 1") == 0 &&
			      strstr(diags.items[0].message, "YAML"),
		      "Broken YAML is reported at its --arg.");
	adhoc_binding_free(&b);
	diag_list_free(&diags);

	char *not_utf8[] = { "%\xff" };
	rq = request(not_utf8, 1);
	ck_assert_msg(adhoc_bind(&rq, &sig, &b, &diags) < 0 &&
			      strcmp(diags.items[0].file, "--arg 1") == 0 &&
			      strstr(diags.items[0].message, "not UTF-8"),
		      "An --arg that is not UTF-8 is refused before libfyaml sees it.");
	adhoc_binding_free(&b);
	diag_list_free(&diags);
}
END_TEST

START_TEST(test_types_it_cannot_generate)
{
	struct kernel_param kparams[] = { { "x", "double4*", ARG_BUFFER, false, false },
					  { "c", "unsigned char", ARG_SCALAR, false, false },
					  { "img", "image2d_t", ARG_SCALAR, true, false } };
	struct kernel_sig ksig = { .params = kparams, .count = 3 };
	struct adhoc_request rq = request(NULL, 0);
	struct adhoc_binding b;
	struct diag_list diags = { 0 };
	ck_assert_msg(adhoc_bind(&rq, &ksig, &b, &diags) < 0, "An image cannot be made.");
	ck_assert_msg(diags.count == 1, "Only the image is refused: double4 and uchar are made.");
	/* No --arg was given for it: the refusal is the kernel file's, not an --arg's. */
	ck_assert_str_eq(diags.items[0].file, rq.kernel_path);
	ck_assert_msg(strstr(diags.items[0].message, "(image2d_t img) is an image,") &&
			      strstr(diags.items[0].message, "rewrite the kernel over a buffer"),
		      "The message names the parameter and the way out: %s",
		      diags.items[0].message);
	adhoc_binding_free(&b);
	diag_list_free(&diags);

	int lines[1];
	kparams[2] = (struct kernel_param){ "tile", "float4*", ARG_LOCAL, false, false };
	ck_assert_msg(adhoc_bind(&rq, &ksig, &b, &diags) == 0, "Vectors and chars are made.");
	char *text = adhoc_case_text(&rq, &ksig, &b, SET_RANDOM, "k.cl", lines);
	ck_assert_msg(
		strstr(text, "{name: x, buffer: double4, count: N, init: {random_int: [-8, 8]}}") &&
			strstr(text, "{name: c, scalar: uchar, value: N}") &&
			strstr(text, "{name: tile, local: float4, count: L}"),
		"Each parameter gets its own type: %s", text);
	free(text);
	adhoc_binding_free(&b);
	diag_list_free(&diags);
}
END_TEST

START_TEST(test_struct_definitions_are_read_from_the_source)
{
	const char *source = "/* struct decoy { int x; }; */\n"
			     "struct params { float scale; // the factor\n"
			     "  unsigned int a, b; };\n"
			     "typedef struct { float4 pos; const float mass; } particle;\n"
			     "struct tagged { char3 c; };\n"
			     "typedef struct tagged alias;\n"
			     "struct bad { float w[4]; };\n";
	struct record *r = NULL;
	char *why = NULL;
	ck_assert_msg(structdef_find(source, "struct params", &r, &why) == 0 && r->nfields == 3 &&
			      r->fields[1].type == ELEM_UINT && r->fields[2].offset == 8,
		      "A tagged struct's fields, two in one declaration, unsigned int as uint.");
	record_free(r);
	ck_assert_msg(structdef_find(source, "particle", &r, &why) == 0 && r->nfields == 2 &&
			      r->fields[1].offset == 16 && r->size == 32,
		      "A typedef of an untagged struct, const dropped.");
	record_free(r);
	ck_assert_msg(structdef_find(source, "alias", &r, &why) == 0 && r->nfields == 1 &&
			      r->fields[0].lanes == 3,
		      "A typedef of a tagged struct defined before.");
	record_free(r);
	ck_assert_msg(structdef_find(source, "struct decoy", &r, &why) < 0 &&
			      strstr(why, "no definition of struct decoy"),
		      "A struct inside a comment is no definition: %s", why);
	free(why);
	ck_assert_msg(structdef_find(source, "struct bad", &r, &why) < 0 &&
			      strstr(why, "struct bad: its field 'float w[4]' is an array"),
		      "An array field is said to be one: %s", why);
	free(why);
}
END_TEST

Suite *adhoc_suite(void)
{
	Suite *s = suite_create("adhoc");
	TCase *tc = tcase_create("adhoc");
	tcase_add_test(tc, test_unbound_parameters_come_from_the_signature);
	tcase_add_test(tc, test_scalars_placed_by_name);
	tcase_add_test(tc, test_specs_bind_by_name_then_in_order);
	tcase_add_test(tc, test_mistakes_name_their_arg);
	tcase_add_test(tc, test_types_it_cannot_generate);
	tcase_add_test(tc, test_struct_definitions_are_read_from_the_source);
	suite_add_tcase(s, tc);
	return s;
}
