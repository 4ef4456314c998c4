/* fuzz_oglog.c - libFuzzer target: Oclgrind's log, parsed and folded into findings as a
 * simulator run does, and the findings rendered as reports render them. */
#include "config.h"

#include "findings/finding.h"
#include "findings/oglog.h"
#include "fuzz.h"

static const char *kernel_file(void *ctx, const char *kernel)
{
	return "kernels/fuzz.cl";
}

static void fold(void *ctx, const struct oglog_message *m)
{
	finding_list_add(ctx, m, kernel_file, NULL);
	oglog_access_type(m->nlocations ? m->locations[0].instruction : NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct finding_list list = { 0 };
	oglog_parse(text, fold, &list);
	struct strbuf out = { 0 };
	for (size_t i = 0; i < list.count; i++) {
		finding_headline(&out, &list.items[i]);
		finding_note(&out, &list.items[i]);
		finding_normal(&out, &list.items[i]);
	}
	strbuf_free(&out);
	finding_list_free(&list);
	free(text);
	return 0;
}
