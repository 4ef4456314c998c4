/* check_elem.c - element types: names and vectors, sizes and padding, half, wrapping. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/elem.h"
#include "case/record.h"
#include "case/shape.h"
#include "check_suites.h"

START_TEST(test_names_parse_with_their_lanes)
{
	enum elem_type type;
	unsigned lanes;
	ck_assert_msg(elem_type_parse("float4", &type, &lanes) == 0 && type == ELEM_FLOAT &&
			      lanes == 4,
		      "float4 is four floats.");
	ck_assert_msg(elem_type_parse("uchar", &type, &lanes) == 0 && type == ELEM_UCHAR &&
			      lanes == 1,
		      "uchar is one lane (and not char with a u in front).");
	ck_assert_msg(elem_type_parse("ulong16", &type, &lanes) == 0 && type == ELEM_ULONG &&
			      lanes == 16,
		      "ulong16 is sixteen ulongs.");
	ck_assert_msg(elem_type_parse("double3", &type, &lanes) == 0 && lanes == 3,
		      "double3 has three lanes.");
	ck_assert_msg(elem_type_parse("float5", &type, &lanes) < 0 &&
			      elem_type_parse("float1", &type, &lanes) < 0 &&
			      elem_type_parse("bool", &type, &lanes) < 0 &&
			      elem_type_parse("int32", &type, &lanes) < 0,
		      "Only OpenCL's vector widths 2, 3, 4, 8 and 16 name types.");
	char text[ELEM_NAME_MAX];
	ck_assert_str_eq(elem_type_text(ELEM_SHORT, 8, text), "short8");
	ck_assert_str_eq(elem_type_text(ELEM_HALF, 1, text), "half");
}
END_TEST

START_TEST(test_sizes_and_the_padding_of_three_lanes)
{
	ck_assert_msg(elem_size(ELEM_CHAR) == 1 && elem_size(ELEM_HALF) == 2 &&
			      elem_size(ELEM_UINT) == 4 && elem_size(ELEM_DOUBLE) == 8,
		      "Scalars have OpenCL's sizes.");
	ck_assert_msg(elem_stride(3) == 4 && elem_stride(4) == 4 && elem_stride(16) == 16,
		      "A 3-vector occupies 4 lanes.");
	ck_assert_msg(elem_is_padding(3, 3) && elem_is_padding(3, 7) && !elem_is_padding(3, 2) &&
			      !elem_is_padding(4, 3),
		      "Only a 3-vector's fourth lane is padding.");
	ck_assert_msg(elem_unit_roundoff(ELEM_HALF) == 0x1p-11 &&
			      elem_unit_roundoff(ELEM_FLOAT) == 0x1p-24 &&
			      elem_unit_roundoff(ELEM_DOUBLE) == 0x1p-53,
		      "Each float type has its own unit roundoff.");
}
END_TEST

START_TEST(test_half_converts_both_ways)
{
	ck_assert_msg(elem_double_to_half(1.0) == 0x3c00 && elem_double_to_half(-2.0) == 0xc000 &&
			      elem_double_to_half(65504) == 0x7bff &&
			      elem_double_to_half(1e6) == 0x7c00 &&
			      elem_double_to_half(0x1p-24) == 0x0001,
		      "Ones, the largest half, overflow and the smallest subnormal.");
	ck_assert_msg(elem_double_to_half(1 + 0x1p-11) == 0x3c00 &&
			      elem_double_to_half(1 + 3 * 0x1p-11) == 0x3c02,
		      "Ties round to even.");
	for (uint32_t h = 0; h < 0x7c00; h++)
		ck_assert_msg(elem_double_to_half(elem_half_to_double((uint16_t)h)) == h,
			      "Every finite half %#x survives a round trip.", h);
	ck_assert_msg(isnan(elem_half_to_double(0x7e00)) && isinf(elem_half_to_double(0xfc00)),
		      "NaN and infinity.");
}
END_TEST

START_TEST(test_integers_wrap_and_extend_like_the_device)
{
	unsigned char bytes[8];
	elem_set(ELEM_UCHAR, bytes, 0, 300);
	ck_assert_msg(bytes[0] == 44, "300 wraps to 44 in a uchar.");
	elem_set(ELEM_CHAR, bytes, 0, -1);
	ck_assert_msg(elem_get_bits(ELEM_CHAR, bytes, 0) == UINT64_MAX &&
			      elem_get(ELEM_CHAR, bytes, 0) == -1,
		      "A char of -1 reads back sign-extended.");
	ck_assert_msg(elem_wrap(ELEM_SHORT, 40000) == (uint64_t)(int64_t)-25536,
		      "40000 wraps to -25536 in a short.");
	ck_assert_msg(elem_int_min(ELEM_CHAR) == (uint64_t)(int64_t)-128 &&
			      elem_int_max(ELEM_USHORT) == 65535 &&
			      elem_int_max(ELEM_ULONG) == UINT64_MAX,
		      "Each integer type knows its range.");
	int64_t big = INT64_C(9007199254740993); /* 2^53 + 1: no double holds it */
	elem_set_bits(ELEM_LONG, bytes, 0, (uint64_t)big);
	ck_assert_msg((int64_t)elem_get_bits(ELEM_LONG, bytes, 0) == big,
		      "A long past 2^53 stays exact as bits.");
}
END_TEST

START_TEST(test_shapes_parse_and_print)
{
	struct shape s;
	char text[SHAPE_TEXT_MAX];
	ck_assert_msg(shape_parse("1024x768", &s) == 0 && s.dims == 2 && s.d[0] == 1024 &&
			      s.d[1] == 768 && s.d[2] == 1,
		      "1024x768 is two dimensions.");
	ck_assert_str_eq(shape_format(&s, text), "1024x768");
	ck_assert_msg(shape_parse("64", &s) == 0 && s.dims == 1, "64 is one dimension.");
	ck_assert_msg(shape_parse("8x8x8x8", &s) < 0 && shape_parse("16x", &s) < 0 &&
			      shape_parse("0x4", &s) < 0 && shape_parse("x4", &s) < 0 &&
			      shape_parse("4 x 4", &s) < 0,
		      "Four dimensions, empty or zero ones, and spaces are refused.");
	struct shape n = { .dims = 2, .d = { 1024, 768, 1 } },
		     l = { .dims = 2, .d = { 16, 16, 1 } };
	char run[SHAPE_RUN_TEXT_MAX];
	ck_assert_str_eq(shape_run_text(&n, &l, " ", run), "N=1024x768 L=16x16");
}
END_TEST

START_TEST(test_launches_too_big_to_simulate_shrink)
{
	struct shape out, n = shape_1d(1048576), l = shape_1d(1024);
	ck_assert_msg(
		shape_shrink_for_simulation(&n, &l, &out) && out.dims == 1 && out.d[0] == 3072,
		"A million items in groups of 1024 shrink to three groups, not %lld.", out.d[0]);
	struct shape small = shape_1d(4096), l256 = shape_1d(256);
	ck_assert_msg(!shape_shrink_for_simulation(&small, &l256, &out) &&
			      shape_equal(&out, &small),
		      "A launch Oclgrind runs in time stays as it is.");
	struct shape wide, tiles = { 2, { 16, 16 } };
	shape_parse("1024x1024", &wide);
	ck_assert_msg(shape_shrink_for_simulation(&wide, &tiles, &out) && out.d[0] == 48 &&
			      out.d[1] == 32,
		      "In 2-D: three groups along x, two along y, each group whole: %lldx%lld.",
		      out.d[0], out.d[1]);
	struct shape tall = { 2, { 16, 65536 } };
	ck_assert_msg(shape_shrink_for_simulation(&tall, &tiles, &out) && out.d[0] == 16 &&
			      out.d[1] == 32,
		      "A dimension of fewer groups than the shrunk launch keeps its size.");
	struct shape ragged = shape_1d(1000003);
	ck_assert_msg(shape_is_ragged(&ragged, &l) && !shape_is_ragged(&n, &l) &&
			      shape_shrink_for_simulation(&ragged, &l, &out) &&
			      out.d[0] == 3 * 1024 + 1000003 % 1024 && shape_is_ragged(&out, &l),
		      "A non-uniform launch shrinks to one too, its last group as short: %lld.",
		      out.d[0]);
}
END_TEST

START_TEST(test_structs_lay_out_as_opencl_c_does)
{
	struct record *r = xcalloc(1, sizeof *r);
	record_add(r, "pos", ELEM_FLOAT, 4);
	record_add(r, "mass", ELEM_FLOAT, 1);
	ck_assert_msg(r->fields[1].offset == 16 && r->size == 32 && r->align == 16,
		      "{float4 pos; float mass;} is 32 bytes: mass at 16, padded to 16.");
	record_free(r);

	r = xcalloc(1, sizeof *r);
	record_add(r, "c", ELEM_CHAR, 1);
	record_add(r, "v", ELEM_INT, 3);
	record_add(r, "d", ELEM_DOUBLE, 1);
	record_add(r, "s", ELEM_SHORT, 1);
	ck_assert_msg(r->fields[1].offset == 16 && r->fields[2].offset == 32 &&
			      r->fields[3].offset == 40 && r->size == 48,
		      "An int3 is aligned to 16 like an int4; the struct ends padded to 16.");
	char *text = record_text(r);
	ck_assert_str_eq(text, "struct {char c; int3 v; double d; short s;}");
	free(text);
	record_free(r);

	r = xcalloc(1, sizeof *r);
	record_add(r, "a", ELEM_UCHAR, 1);
	record_add(r, "b", ELEM_UCHAR, 2);
	ck_assert_msg(r->fields[1].offset == 2 && r->size == 4,
		      "A uchar2 aligns to 2: {uchar; uchar2} is 4 bytes.");
	record_free(r);
}
END_TEST

Suite *elem_suite(void)
{
	Suite *s = suite_create("elem");
	TCase *tc = tcase_create("elem");
	tcase_add_test(tc, test_names_parse_with_their_lanes);
	tcase_add_test(tc, test_sizes_and_the_padding_of_three_lanes);
	tcase_add_test(tc, test_half_converts_both_ways);
	tcase_add_test(tc, test_integers_wrap_and_extend_like_the_device);
	tcase_add_test(tc, test_shapes_parse_and_print);
	tcase_add_test(tc, test_launches_too_big_to_simulate_shrink);
	tcase_add_test(tc, test_structs_lay_out_as_opencl_c_does);
	suite_add_tcase(s, tc);
	return s;
}
