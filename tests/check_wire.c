/* check_wire.c - the frames between workers and the parent survive the trip. */
#include "config.h"

#include <string.h>

#include "check_suites.h"
#include "wire.h"

START_TEST(test_result_round_trip)
{
	struct result r = {
		.case_name = "reduce/halving",
		.case_path = "cases/reduce/halving.yaml",
		.target = "pocl-cpu",
		.backend = "device",
		.n = 1024,
		.l = 64,
		.verdict = VERDICT_WRONG_OUTPUT,
		.racy = true,
		.kernel_ns = 12345,
		.repeat = 3,
		.drift = 0.25,
		.file = NULL,
		.line = 13,
		.col = 3,
		.message = "out[5]: got 1, want 2",
		.detail = "",
		.buffer = "out",
		.index = 5,
		.got = 1,
		.want = 2,
		.mismatches = 7,
		.compared = 16,
	};
	struct strbuf sb = { 0 };
	wire_result(&sb, &r);
	enum frame_type type;
	const char *payload;
	size_t len;
	long whole = wire_split(sb.data, sb.len, &type, &payload, &len);
	ck_assert_msg(whole == (long)sb.len && type == FRAME_RESULT, "One whole result frame.");
	struct result back;
	ck_assert_msg(wire_read_result(payload, len, &back) == 0, "The frame decodes.");
	ck_assert_msg(strcmp(back.case_name, r.case_name) == 0 && back.file == NULL &&
			      strcmp(back.detail, "") == 0 && strcmp(back.message, r.message) == 0,
		      "Strings survive, NULL and empty ones apart.");
	ck_assert_msg(back.n == 1024 && back.l == 64 && back.verdict == VERDICT_WRONG_OUTPUT &&
			      back.racy && back.kernel_ns == 12345 && back.drift == 0.25 &&
			      back.index == 5 && back.mismatches == 7,
		      "Numbers survive.");
	result_free(&back);
	strbuf_free(&sb);
}
END_TEST

START_TEST(test_partial_and_garbled_frames)
{
	struct strbuf sb = { 0 };
	wire_begin(&sb, 3, 4, 77);
	enum frame_type type;
	const char *payload;
	size_t len;
	ck_assert_msg(wire_split(sb.data, sb.len - 1, &type, &payload, &len) == 0,
		      "A frame missing its last byte is not complete yet.");
	size_t c, run;
	long long offset;
	ck_assert_msg(wire_split(sb.data, sb.len, &type, &payload, &len) > 0 &&
			      wire_read_begin(payload, len, &c, &run, &offset) == 0 && c == 3 &&
			      run == 4 && offset == 77,
		      "The whole frame decodes to case 3, run 4, output offset 77.");
	sb.data[0] = 99;
	ck_assert_msg(wire_split(sb.data, sb.len, &type, &payload, &len) < 0,
		      "An unknown frame type is garbage.");
	struct result r;
	ck_assert_msg(wire_read_result("\x01\x02", 2, &r) < 0,
		      "A truncated result does not decode.");
	strbuf_free(&sb);
}
END_TEST

START_TEST(test_findings_travel_with_their_result)
{
	struct finding findings[2] = {
		{ .kind = FINDING_RACE,
		  .severity = DIAG_WARNING,
		  .what = "write-write",
		  .space = "global",
		  .kernel = "k",
		  .file = "kernels/k.cl",
		  .at = { 17, 23, 'w' },
		  .other = { 17, 23, 'w' },
		  .count = 248,
		  .example = { { .is_item = true, .global = { 1, 0, 0 }, .group = { 0, 0, 0 } },
			       { .is_item = true, .global = { 0, 0, 0 } } },
		  .nexample = 2,
		  .input_set = "zeros" },
		{ .kind = FINDING_API_ERROR, .severity = DIAG_ERROR, .info = "CL_INVALID_VALUE" },
	};
	struct result r = { .case_name = "x",
			    .verdict = VERDICT_RACE,
			    .output = VERDICT_PASS,
			    .simulated = true,
			    .findings = { findings, 2 } };
	struct strbuf sb = { 0 };
	wire_result(&sb, &r);
	enum frame_type type;
	const char *payload;
	size_t len;
	wire_split(sb.data, sb.len, &type, &payload, &len);
	struct result back;
	ck_assert_msg(wire_read_result(payload, len, &back) == 0, "The frame decodes.");
	ck_assert_msg(back.findings.count == 2 && back.simulated && back.output == VERDICT_PASS,
		      "Both findings, the output verdict and the simulator flag arrive.");
	const struct finding *f = &back.findings.items[0];
	ck_assert_msg(f->kind == FINDING_RACE && f->severity == DIAG_WARNING && f->count == 248 &&
			      f->at.line == 17 && f->other.access == 'w' && f->nexample == 2 &&
			      f->example[0].global[0] == 1 && f->example[0].is_item,
		      "The finding's numbers and example survive.");
	ck_assert_str_eq(f->file, "kernels/k.cl");
	ck_assert_str_eq(f->input_set, "zeros");
	ck_assert_msg(back.findings.items[1].what == NULL &&
			      strcmp(back.findings.items[1].info, "CL_INVALID_VALUE") == 0,
		      "NULL and set strings stay apart.");
	result_free(&back);
	ck_assert_msg(wire_read_result(payload, len - 1, &back) < 0,
		      "A result cut inside its findings does not decode.");
	strbuf_free(&sb);
}
END_TEST

Suite *wire_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *tc = tcase_create("wire");
	tcase_add_test(tc, test_result_round_trip);
	tcase_add_test(tc, test_partial_and_garbled_frames);
	tcase_add_test(tc, test_findings_travel_with_their_result);
	suite_add_tcase(s, tc);
	return s;
}
