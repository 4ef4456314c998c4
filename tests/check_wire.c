/* check_wire.c - the frames between workers and the parent survive the trip. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "check_suites.h"
#include "exec/wire.h"

START_TEST(test_result_round_trip)
{
	struct result r = {
		.case_name = "reduce/halving",
		.case_path = "cases/reduce/halving.yaml",
		.target = "pocl-cpu",
		.backend = "device",
		.n = { .dims = 2, .d = { 1024, 768, 1 } },
		.l = { .dims = 2, .d = { 16, 16, 1 } },
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
	ck_assert_msg(shape_equal(&back.n, &r.n) && shape_equal(&back.l, &r.l) &&
			      back.verdict == VERDICT_WRONG_OUTPUT && back.racy &&
			      back.kernel_ns == 12345 && back.drift == 0.25 && back.index == 5 &&
			      back.mismatches == 7,
		      "Numbers and shapes survive.");
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

/* Encodes r (with its findings) and reports whether the parent would decode it. */
static bool decodes(const struct result *r)
{
	struct strbuf sb = { 0 };
	wire_result(&sb, r);
	enum frame_type type;
	const char *payload;
	size_t len;
	bool ok = wire_split(sb.data, sb.len, &type, &payload, &len) > 0;
	struct result back;
	ok = ok && wire_read_result(payload, len, &back) == 0;
	if (ok)
		result_free(&back);
	strbuf_free(&sb);
	return ok;
}

/* A worker runs kernels as native code: whatever it sends, a value out of its range
 * (which would index a table of names, or overrun the two example work-items) makes the
 * frame malformed instead of reaching the reporters. */
START_TEST(test_values_out_of_range_are_malformed)
{
	struct finding f = { .kind = FINDING_RACE, .severity = DIAG_ERROR, .nexample = 2 };
	struct result r = { .verdict = VERDICT_RACE,
			    .output = VERDICT_PASS,
			    .findings = { .items = &f, .count = 1 } };
	ck_assert_msg(decodes(&r), "The untouched result decodes.");
	unsigned char seven = 7, nine = 9;

	r.verdict = (enum verdict)(VERDICT_SKIP + 1);
	ck_assert_msg(!decodes(&r), "A verdict past the last is malformed.");
	r.verdict = (enum verdict) - 1;
	ck_assert_msg(!decodes(&r), "A negative verdict is malformed.");
	r.verdict = VERDICT_RACE;
	memcpy(&r.racy, &seven, 1);
	ck_assert_msg(!decodes(&r), "A boolean of 7 is malformed.");
	r.racy = false;
	r.line = -3;
	ck_assert_msg(!decodes(&r), "A negative line is malformed.");
	r.line = 0;
	r.n = (struct shape){ .dims = 4 };
	ck_assert_msg(!decodes(&r), "A shape of four dimensions is malformed.");
	r.n = (struct shape){ .dims = 2, .d = { 64, 0, 1 } };
	ck_assert_msg(!decodes(&r), "A shape with a dimension of 0 is malformed.");
	r.n = (struct shape){ 0 };

	f.kind = (enum finding_kind)(FINDING_OTHER + 1);
	ck_assert_msg(!decodes(&r), "A finding kind past the last is malformed.");
	f.kind = FINDING_RACE;
	f.severity = (enum diag_severity)(DIAG_NOTE + 1);
	ck_assert_msg(!decodes(&r), "A severity past the last is malformed.");
	f.severity = DIAG_ERROR;
	f.nexample = 3;
	ck_assert_msg(!decodes(&r), "Three examples of two are malformed.");
	f.nexample = 2;
	f.at.access = 'x';
	ck_assert_msg(!decodes(&r), "An access that is not r, w or a is malformed.");
	f.at.access = 'w';
	f.other.col = -1;
	ck_assert_msg(!decodes(&r), "A negative column is malformed.");
	f.other.col = 0;
	memcpy(&f.example[1].is_item, &nine, 1);
	ck_assert_msg(!decodes(&r), "An example whose is_item is 9 is malformed.");
	f.example[1].is_item = true;
	ck_assert_msg(decodes(&r), "Put right again, the result decodes.");

	char frame[5] = { FRAME_RESULT, 0, 0, 0, 0 };
	uint32_t huge = WIRE_MAX_PAYLOAD + 1;
	memcpy(frame + 1, &huge, sizeof huge);
	enum frame_type type;
	const char *payload;
	size_t len;
	ck_assert_msg(wire_split(frame, sizeof frame, &type, &payload, &len) < 0,
		      "A frame announcing more than the largest payload is malformed at once, "
		      "before the parent buffers it.");
}
END_TEST

Suite *wire_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *tc = tcase_create("wire");
	tcase_add_test(tc, test_result_round_trip);
	tcase_add_test(tc, test_partial_and_garbled_frames);
	tcase_add_test(tc, test_findings_travel_with_their_result);
	tcase_add_test(tc, test_values_out_of_range_are_malformed);
	suite_add_tcase(s, tc);
	return s;
}
