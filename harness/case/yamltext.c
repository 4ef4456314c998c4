/* yamltext.c - parses a string with libfyaml, collecting its diagnostics instead of
 * letting it print them. */
#include "config.h"

#include "case/yamltext.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/yamlguard.h"

struct fy_document *yaml_from_text(const char *text, bool json, bool guard, struct yaml_error *err)
{
	*err = (struct yaml_error){ 0 };
	/* As for files (yamlread.c): libfyaml can loop for ever on bytes that are not UTF-8. */
	if (utf8_find_invalid(text, strlen(text), &err->line, &err->col)) {
		err->msg = xstrdup("not UTF-8 text");
		return NULL;
	}
	char *why = NULL;
	if (guard && yaml_survives(text, json, false, &why) < 0) {
		err->line = err->col = 1;
		err->msg = why;
		return NULL;
	}
	struct fy_diag_cfg dcfg;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	struct fy_diag *fdiag = fy_diag_create(&dcfg);
	fy_diag_set_collect_errors(fdiag, true);
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG |
					      (json ? FYPCF_JSON_FORCE : 0),
				     .diag = fdiag };
	struct fy_document *doc = fy_document_build_from_string(&pcfg, text, FY_NT);
	if (doc == NULL) {
		void *iter = NULL;
		struct fy_diag_error *e = fy_diag_errors_iterate(fdiag, &iter);
		if (e) {
			err->line = e->line;
			err->col = e->column;
			err->msg = xstrdup(e->msg);
		}
	}
	fy_diag_destroy(fdiag);
	return doc;
}

void yaml_error_free(struct yaml_error *err)
{
	free(err->msg);
	*err = (struct yaml_error){ 0 };
}
