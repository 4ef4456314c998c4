/* fuzz_golden.c - libFuzzer target: the golden parser, on any text as a golden. */
#include "config.h"

#include "fuzz.h"
#include "results/golden.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct diag_list diags = { 0 };
	struct golden *g = golden_parse("expected/fuzz.expect", text, &diags);
	golden_free(g);
	diag_list_free(&diags);
	free(text);
	return 0;
}
