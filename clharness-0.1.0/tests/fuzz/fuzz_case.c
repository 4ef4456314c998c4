/* fuzz_case.c - libFuzzer target: the case loader, on any text as a case file. */
#include "config.h"

#include "case/testcase.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct diag_list diags = { 0 };
	/* Named as if beside the catalogue, so kernel files resolve as a real case's do. */
	struct test_case *tc = case_load_text("cases/fuzz/case.yaml", text, &diags);
	case_free(tc);
	diag_list_free(&diags);
	free(text);
	return 0;
}
