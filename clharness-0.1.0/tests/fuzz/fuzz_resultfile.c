/* fuzz_resultfile.c - libFuzzer target: a results file (JSON Lines), as the catalogue
 * page reads recorded results. */
#include "config.h"

#include "fuzz.h"
#include "results/resultfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct recorded_list list = { 0 };
	struct diag_list diags = { 0 };
	resultfile_parse("doc/results/fuzz.jsonl", text, &list, &diags);
	recorded_list_free(&list);
	diag_list_free(&diags);
	free(text);
	return 0;
}
