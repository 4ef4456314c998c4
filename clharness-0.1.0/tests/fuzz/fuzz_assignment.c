/* fuzz_assignment.c - libFuzzer target: the assignment loader, on any text as an
 * assignment. */
#include "config.h"

#include "fuzz.h"
#include "grade/assignment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct diag_list diags = { 0 };
	struct assignment *a = assignment_load_text("assignments/fuzz.yaml", text, &diags);
	assignment_free(a);
	diag_list_free(&diags);
	free(text);
	return 0;
}
