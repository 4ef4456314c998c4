/* yamltext.c - parses a string with libfyaml, collecting its diagnostics instead of
 * letting it print them. */
#include "config.h"

#include "case/yamltext.h"

#include <math.h>
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

struct fy_node *json_member(struct fy_node *map, const char *key)
{
	return map && fy_node_is_mapping(map) ? fy_node_mapping_lookup_by_string(map, key, FY_NT)
					      : NULL;
}

/* A scalar member's text, and whether JSON quoted it (a string, not a number or a word). */
static const char *scalar_member(struct fy_node *map, const char *key, size_t *len, bool *quoted)
{
	struct fy_node *n = json_member(map, key);
	if (n == NULL || !fy_node_is_scalar(n))
		return NULL;
	*quoted = fy_node_get_style(n) != FYNS_PLAIN;
	return fy_node_get_scalar(n, len);
}

char *json_text(struct fy_node *map, const char *key)
{
	size_t len;
	bool quoted;
	const char *text = scalar_member(map, key, &len, &quoted);
	return text && quoted ? xstrndup(text, len) : NULL;
}

double json_number(struct fy_node *map, const char *key, double fallback)
{
	size_t len;
	bool quoted;
	const char *text = scalar_member(map, key, &len, &quoted);
	if (text == NULL || quoted)
		return fallback;
	char *copy = xstrndup(text, len), *end;
	double value = strtod(copy, &end);
	bool whole = end != copy && *end == '\0';
	free(copy);
	return whole ? value : fallback;
}

long long json_whole(struct fy_node *map, const char *key, long long lo, long long hi,
		     long long fallback)
{
	double v = json_number(map, key, NAN);
	/* NaN fails both comparisons. */
	return v >= (double)lo && v <= (double)hi && v == floor(v) ? (long long)v : fallback;
}

bool json_bool(struct fy_node *map, const char *key)
{
	size_t len;
	bool quoted;
	const char *text = scalar_member(map, key, &len, &quoted);
	return text && !quoted && len == 4 && strncmp(text, "true", 4) == 0;
}
