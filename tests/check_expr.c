/* check_expr.c - size expressions: precedence, functions, names, and every error. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "case/expr.h"
#include "check_suites.h"

static long long eval_at(const char *text, long long n, long long l)
{
	struct expr *e;
	struct expr_error err;
	ck_assert_msg(expr_parse(text, &e, &err) == 0, "'%s' should parse, but: %s", text,
		      err.message);
	long long v;
	struct expr_env env = { .size = { n, 7, 3 }, .local = { l, 5, 2 }, .cu = 4, .i = 2 };
	ck_assert_msg(expr_eval(e, &env, &v, &err) == 0, "'%s' should evaluate, but: %s", text,
		      err.message);
	expr_free(e);
	return v;
}

/* Checks that `text` fails, while parsing or (when it parses) while evaluating at N = 10,
 * L = 0, with an error at `offset` whose message contains `message`. */
static void expect_error(const char *text, bool when_evaluated, int offset, const char *message)
{
	struct expr *e = NULL;
	struct expr_error err;
	int parsed = expr_parse(text, &e, &err);
	if (when_evaluated) {
		ck_assert_msg(parsed == 0, "'%s' should parse.", text);
		long long v;
		struct expr_env env = { .size = { 10, 1, 1 }, .local = { 0, 1, 1 } };
		ck_assert_msg(expr_eval(e, &env, &v, &err) < 0, "'%s' should fail to evaluate.",
			      text);
		expr_free(e);
	} else {
		ck_assert_msg(parsed < 0, "'%s' should not parse.", text);
	}
	ck_assert_msg(err.offset == offset, "The error in '%s' is at offset %d, not %d.", text,
		      offset, err.offset);
	ck_assert_msg(strstr(err.message, message) != NULL,
		      "The error in '%s' should say \"%s\", not \"%s\".", text, message,
		      err.message);
}

static void expect_parse_error(const char *text, int offset, const char *message)
{
	expect_error(text, false, offset, message);
}

static void expect_eval_error(const char *text, int offset, const char *message)
{
	expect_error(text, true, offset, message);
}

START_TEST(test_precedence_and_parentheses)
{
	ck_assert_msg(eval_at("2 + 3 * 4", 0, 0) == 14, "* binds tighter than +.");
	ck_assert_msg(eval_at("(2 + 3) * 4", 0, 0) == 20, "Parentheses group.");
	ck_assert_msg(eval_at("20 - 6 - 4", 0, 0) == 10, "- associates to the left.");
	ck_assert_msg(eval_at("N / L % 3", 100, 8) == 0,
		      "/ and %% associate to the left: 12 %% 3.");
	ck_assert_msg(eval_at("-N + 1", 5, 0) == -4, "Unary minus applies to its operand.");
}
END_TEST

START_TEST(test_names)
{
	ck_assert_msg(eval_at("N * L + CU + I", 10, 3) == 36, "N, L, CU and I take their values.");
	ck_assert_msg(eval_at("M * 100 + K * 10 + LY - LZ", 10, 3) == 733,
		      "M and K are the size's dimensions 1 and 2, LY and LZ the work-group's.");
}
END_TEST

START_TEST(test_functions)
{
	ck_assert_msg(eval_at("ceildiv(N, L)", 1000, 64) == 16, "ceildiv rounds up.");
	ck_assert_msg(eval_at("ceildiv(N, L)", 1024, 64) == 16, "ceildiv of a multiple is exact.");
	ck_assert_msg(eval_at("ceildiv(N, L) * L", 1000, 64) == 1024,
		      "Rounding up to whole groups.");
	ck_assert_msg(eval_at("min(N, L)", 5, 9) == 5 && eval_at("max(N, L)", 5, 9) == 9,
		      "min and max.");
	ck_assert_msg(eval_at("pow(L, 3)", 0, 4) == 64 && eval_at("pow(L, 0)", 0, 4) == 1, "pow.");
	ck_assert_msg(eval_at("log2(N)", 1000, 0) == 10 && eval_at("log2(N)", 1024, 0) == 10 &&
			      eval_at("log2(N)", 1, 0) == 0,
		      "log2 rounds up.");
	ck_assert_msg(expr_ceil_log2(1) == 0 && expr_ceil_log2(5) == 3 &&
			      expr_ceil_log2(__LONG_LONG_MAX__) == 63,
		      "ceil(log2) holds up to the largest value.");
}
END_TEST

START_TEST(test_names_used_are_reported)
{
	struct expr *e;
	struct expr_error err;
	ck_assert_msg(expr_parse("ceildiv(N, pow(L, I))", &e, &err) == 0,
		      "The expression should parse.");
	ck_assert_msg(expr_names(e) == (EXPR_N | EXPR_L | EXPR_I),
		      "It uses N, L and I, and not CU.");
	ck_assert_str_eq(expr_text(e), "ceildiv(N, pow(L, I))");
	expr_free(e);
	ck_assert_msg(expr_parse("M * K + LY * LZ", &e, &err) == 0, "The expression should parse.");
	ck_assert_msg(expr_names(e) == (EXPR_M | EXPR_K | EXPR_LY | EXPR_LZ),
		      "It uses M, K, LY and LZ alone.");
	ck_assert_str_eq(expr_name_text(EXPR_LY), "LY");
	expr_free(e);
}
END_TEST

START_TEST(test_parse_errors_point_at_their_offset)
{
	expect_parse_error("N * W", 4, "unknown name 'W'");
	expect_parse_error("N +", 3, "found the end of the expression");
	expect_parse_error("(N + 1", 6, "expected ')'");
	expect_parse_error("ceildiv(N", 9, "expected ',' between arguments");
	expect_parse_error("floor(N, L)", 0, "unknown function 'floor'");
	expect_parse_error("N 2", 2, "unexpected '2'");
	expect_parse_error("2N", 1, "expected an operator after the number");
	expect_parse_error("99999999999999999999", 0, "number too large");
}
END_TEST

START_TEST(test_evaluation_errors_point_at_the_operator)
{
	expect_eval_error("N / L", 2, "division by zero");
	expect_eval_error("N % L", 2, "division by zero");
	expect_eval_error("1 + ceildiv(N, L)", 4, "needs a positive divisor");
	expect_eval_error("log2(L)", 0, "must be positive");
	expect_eval_error("pow(N, 0 - 1)", 0, "negative exponent");
	expect_eval_error("pow(N, 100)", 0, "overflow");
	expect_eval_error("N * 4611686018427387904", 2, "overflow");
}
END_TEST

/* A text of `count` copies of `unit` around `middle`, then `count` copies of `close`. */
static char *repeated(const char *unit, const char *middle, const char *close, int count)
{
	size_t len = (strlen(unit) + strlen(close)) * (size_t)count + strlen(middle) + 1;
	char *s = calloc(1, len), *end = s;
	for (int i = 0; i < count; i++)
		end = stpcpy(end, unit);
	end = stpcpy(end, middle);
	for (int i = 0; i < count; i++)
		end = stpcpy(end, close);
	return s;
}

/* Each shape nests 50,000 deep: parsing must refuse it, not overflow the stack. */
START_TEST(test_deep_nesting_is_an_error_not_a_crash)
{
	static const struct {
		const char *unit, *middle, *close;
	} shapes[] = {
		{ "(", "1", ")" }, { "-", "1", "" },	   { "1+", "1", "" },
		{ "2*", "1", "" }, { "min(1,", "1", ")" }, { "", "1", "+1" },
	};
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		char *text = repeated(shapes[i].unit, shapes[i].middle, shapes[i].close, 50000);
		struct expr *e = NULL;
		struct expr_error err;
		ck_assert_msg(expr_parse(text, &e, &err) < 0,
			      "An expression nested 50,000 deep (%s...) should not parse.",
			      shapes[i].unit);
		ck_assert_msg(strstr(err.message, "nested more than") != NULL,
			      "Deep nesting should be reported as such, not as \"%s\".",
			      err.message);
		free(text);
	}
	ck_assert_msg(eval_at("((((((((((N))))))))))", 3, 0) == 3,
		      "Ten parentheses are well within the limit.");
}
END_TEST

START_TEST(test_pow_with_a_huge_exponent_is_quick)
{
	ck_assert_msg(eval_at("pow(1, 9223372036854775807)", 0, 0) == 1,
		      "1 to any power is 1, without a loop over the exponent.");
	ck_assert_msg(eval_at("pow(0, 9223372036854775807)", 0, 0) == 0, "0 to any power is 0.");
	ck_assert_msg(eval_at("pow(0, 0)", 0, 0) == 1, "pow(0, 0) is 1.");
	ck_assert_msg(eval_at("pow(0 - 1, 9223372036854775807)", 0, 0) == -1,
		      "-1 to an odd power is -1.");
	ck_assert_msg(eval_at("pow(0 - 1, 9223372036854775806)", 0, 0) == 1,
		      "-1 to an even power is 1.");
	expect_eval_error("pow(2, 9223372036854775807)", 0, "overflow");
	expect_eval_error("pow(0 - 3, 9223372036854775807)", 0, "overflow");
}
END_TEST

Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("expr");
	tcase_add_test(tc, test_precedence_and_parentheses);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_functions);
	tcase_add_test(tc, test_names_used_are_reported);
	tcase_add_test(tc, test_parse_errors_point_at_their_offset);
	tcase_add_test(tc, test_evaluation_errors_point_at_the_operator);
	tcase_add_test(tc, test_deep_nesting_is_an_error_not_a_crash);
	tcase_add_test(tc, test_pow_with_a_huge_exponent_is_quick);
	suite_add_tcase(s, tc);
	return s;
}
