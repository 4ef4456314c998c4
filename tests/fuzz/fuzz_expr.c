/* fuzz_expr.c - libFuzzer target: size expressions, parsed and evaluated at a few sizes
 * (a case's counts and check's --arg values come from users). */
#include "config.h"

#include "case/expr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct expr *e;
	struct expr_error err;
	if (expr_parse(text, &e, &err) == 0) {
		static const struct expr_env envs[] = {
			{ .size = { 1024, 768, 4 }, .local = { 64, 4, 2 }, .cu = 16, .i = 3 },
			{ .size = { 0, 0, 0 }, .local = { 0, 0, 0 }, .cu = 0, .i = 0 },
			{ .size = { -1, 1, 1 }, .local = { 1, 1, 1 }, .cu = 1, .i = 0 },
			{ .size = { (long long)(~0ULL >> 1), 1, 1 },
			  .local = { (long long)(~0ULL >> 1), 1, 1 },
			  .cu = 2,
			  .i = 1 },
		};
		for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
			long long v;
			expr_eval(e, &envs[i], &v, &err);
		}
		expr_names(e);
		expr_free(e);
	}
	free(text);
	return 0;
}
