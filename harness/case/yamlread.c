/* yamlread.c - reading a YAML document with libfyaml into a model, reporting every
 * mistake at the node that holds it: the helpers case files and assignments share. */
#include "config.h"

#include <errno.h>
#include <libfyaml.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case/yamlguard.h"
#include "case/yamlread.h"

void yr_error(struct yaml_reader *r, struct src_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	diag_add(r->diags, DIAG_ERROR, r->path, pos.line, pos.col, "%s", msg);
	free(msg);
	r->errors++;
}

struct src_pos yr_pos(struct fy_node *node, struct src_pos fallback)
{
	if (node == NULL)
		return fallback;
	if (fy_node_is_scalar(node)) {
		struct fy_token *tok = fy_node_get_scalar_token(node);
		const struct fy_mark *mark = tok ? fy_token_start_mark(tok) : NULL;
		return mark ? (struct src_pos){ mark->line + 1, mark->column + 1 } : fallback;
	}
	void *iter = NULL;
	if (fy_node_is_mapping(node)) {
		struct fy_node_pair *pair = fy_node_mapping_iterate(node, &iter);
		return pair ? yr_pos(fy_node_pair_key(pair), fallback) : fallback;
	}
	if (fy_node_is_sequence(node))
		return yr_pos(fy_node_sequence_iterate(node, &iter), fallback);
	return fallback;
}

const char *yr_kind(struct fy_node *node)
{
	if (node == NULL || (fy_node_is_scalar(node) && fy_node_get_scalar_length(node) == 0 &&
			     fy_node_get_style(node) == FYNS_PLAIN))
		return "nothing";
	if (fy_node_is_mapping(node))
		return "a mapping";
	if (fy_node_is_sequence(node))
		return "a list";
	return "a scalar";
}

char *yr_scalar(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what)
{
	if (node == NULL || !fy_node_is_scalar(node) || yr_kind(node)[0] == 'n') {
		yr_error(r, yr_pos(node, at), "expected %s, found %s", what, yr_kind(node));
		return NULL;
	}
	size_t len;
	const char *text = fy_node_get_scalar(node, &len);
	return xstrndup(text, len);
}

/* More ')' than '(': the tail of an expression that YAML cut at a comma. */
static bool yr_cut_at_comma(const char *text, int balance)
{
	for (const char *p = text; *p; p++)
		balance += (*p == '(') - (*p == ')');
	return balance != 0;
}

static const char yr_comma_hint[] =
	"inside {...} or [...] a comma ends a value, so quote an expression that holds commas, "
	"e.g. count: 'ceildiv(N, L)'";

/* Suggests the nearest allowed key, since a typo in a key is the commonest mistake. */
size_t yr_reject_unknown_keys(struct yaml_reader *r, struct fy_node *map, const char *where,
			      const char *const *allowed)
{
	size_t before = r->errors;
	void *iter = NULL;
	struct fy_node_pair *pair;
	while ((pair = fy_node_mapping_iterate(map, &iter)) != NULL) {
		struct fy_node *key = fy_node_pair_key(pair);
		size_t len;
		const char *text =
			key && fy_node_is_scalar(key) ? fy_node_get_scalar(key, &len) : NULL;
		if (text == NULL) {
			yr_error(r, yr_pos(key, (struct src_pos){ 0 }),
				 "keys in %s must be plain words", where);
			continue;
		}
		char *name = xstrndup(text, len);
		if (yr_cut_at_comma(name, 0)) {
			yr_error(r, yr_pos(key, (struct src_pos){ 0 }),
				 "'%s' is the end of an expression cut off at a comma: %s", name,
				 yr_comma_hint);
			free(name);
			continue;
		}
		size_t nallowed = 0;
		while (allowed[nallowed])
			nallowed++;
		const char *nearest = nearest_name(name, allowed, nallowed);
		if (nearest == NULL || strcmp(nearest, name) != 0) {
			struct strbuf keys = { 0 };
			for (const char *const *k = allowed; *k; k++)
				strbuf_printf(&keys, "%s%s", k == allowed ? "" : ", ", *k);
			if (nearest) {
				yr_error(r, yr_pos(key, (struct src_pos){ 0 }),
					 "unknown key '%s' in %s; did you mean '%s'?", name, where,
					 nearest);
				r->suggestions = xreallocarray(r->suggestions, r->nsuggestions + 1,
							       sizeof *r->suggestions);
				r->suggestions[r->nsuggestions++] =
					(struct yr_suggestion){ map, nearest };
			} else
				yr_error(r, yr_pos(key, (struct src_pos){ 0 }),
					 "unknown key '%s' in %s (known keys: %s)", name, where,
					 keys.data);
			strbuf_free(&keys);
		}
		free(name);
	}
	return r->errors - before;
}

struct fy_node *yr_get(struct fy_node *map, const char *key)
{
	return fy_node_mapping_lookup_by_string(map, key, FY_NT);
}

bool yr_misspelt(const struct yaml_reader *r, struct fy_node *map, const char *key)
{
	for (size_t i = 0; i < r->nsuggestions; i++)
		if (r->suggestions[i].map == map && strcmp(r->suggestions[i].key, key) == 0)
			return true;
	return false;
}

struct src_pos yr_key_pos(struct fy_node *map, const char *key, struct src_pos fallback)
{
	void *iter = NULL;
	struct fy_node_pair *pair;
	while ((pair = fy_node_mapping_iterate(map, &iter)) != NULL) {
		struct fy_node *k = fy_node_pair_key(pair);
		size_t len;
		const char *text = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &len) : NULL;
		if (text && strlen(key) == len && strncmp(text, key, len) == 0)
			return yr_pos(k, fallback);
	}
	return yr_pos(map, fallback);
}

bool yr_require_mapping(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
			const char *what)
{
	if (node && fy_node_is_mapping(node))
		return true;
	yr_error(r, yr_pos(node, at), "%s must be a mapping, found %s", what, yr_kind(node));
	return false;
}

bool yr_pexpr(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	      unsigned names, struct pexpr *out)
{
	char *text = yr_scalar(r, node, at, what);
	if (text == NULL)
		return false;
	struct src_pos pos = yr_pos(node, at);
	enum fy_node_style style = fy_node_get_style(node);
	int quote = style == FYNS_SINGLE_QUOTED || style == FYNS_DOUBLE_QUOTED;
	struct expr_error err;
	struct expr *e;
	if (expr_parse(text, &e, &err) < 0) {
		yr_error(r, (struct src_pos){ pos.line, pos.col + quote + err.offset },
			 "in %s '%s': %s%s%s", what, text, err.message,
			 yr_cut_at_comma(text, 0) && !quote ? "; " : "",
			 yr_cut_at_comma(text, 0) && !quote ? yr_comma_hint : "");
		free(text);
		return false;
	}
	unsigned extra = expr_names(e) & ~names;
	if (extra) {
		yr_error(r, pos, "%s '%s' uses %s, which %s", what, text,
			 expr_name_text(extra & EXPR_I ? EXPR_I : (enum expr_name)(extra & -extra)),
			 extra & EXPR_I ? "exists only in a step with `repeat`"
					: "has no value here");
		expr_free(e);
		free(text);
		return false;
	}
	free(text);
	r->names_used |= expr_names(e);
	out->expr = e;
	out->pos = (struct src_pos){ pos.line, pos.col + quote };
	return true;
}

char *yr_scalar_at(struct yaml_reader *r, struct fy_node *map, const char *key, struct src_pos at,
		   const char *what)
{
	struct fy_node *node = yr_get(map, key);
	if (node == NULL && yr_misspelt(r, map, key))
		return NULL;
	return yr_scalar(r, node, at, what);
}

bool yr_pexpr_at(struct yaml_reader *r, struct fy_node *map, const char *key, struct src_pos at,
		 const char *what, unsigned names, struct pexpr *out)
{
	struct fy_node *node = yr_get(map, key);
	if (node == NULL && yr_misspelt(r, map, key))
		return false;
	return yr_pexpr(r, node, at, what, names, out);
}

bool yr_number(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	       double *out)
{
	char *text = yr_scalar(r, node, at, what);
	if (text == NULL)
		return false;
	char *end;
	double v = strtod(text, &end);
	bool ok = end != text && *end == '\0' && isfinite(v);
	if (!ok)
		yr_error(r, yr_pos(node, at), "%s must be a finite number, found '%s'", what, text);
	free(text);
	*out = v;
	return ok;
}

bool yr_bool(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	     bool *out)
{
	char *text = yr_scalar(r, node, at, what);
	if (text == NULL)
		return false;
	bool ok = true;
	if (strcmp(text, "true") == 0)
		*out = true;
	else if (strcmp(text, "false") == 0)
		*out = false;
	else {
		yr_error(r, yr_pos(node, at), "%s must be true or false, found '%s'", what, text);
		ok = false;
	}
	free(text);
	return ok;
}

bool yr_size(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	     const char *subject, long long *out)
{
	struct pexpr pe = { 0 };
	if (!yr_pexpr(r, node, at, what, 0, &pe))
		return false;
	struct expr_error err;
	bool ok = false;
	if (expr_eval(pe.expr, &(struct expr_env){ 0 }, out, &err) < 0)
		yr_error(r, (struct src_pos){ pe.pos.line, pe.pos.col + err.offset }, "in %s: %s",
			 what, err.message);
	else if (*out <= 0)
		yr_error(r, pe.pos, "%s must be positive, found %lld", subject, *out);
	else
		ok = true;
	expr_free(pe.expr);
	return ok;
}

bool yr_shape(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	      struct shape *out)
{
	char *subject = xasprintf("every dimension of %s", what);
	bool ok = false;
	*out = (struct shape){ .dims = 0, .d = { 1, 1, 1 } };
	if (node == NULL || !fy_node_is_sequence(node)) {
		long long v;
		ok = yr_size(r, node, at, what, subject, &v);
		*out = shape_1d(v);
	} else if (fy_node_sequence_item_count(node) < 1 ||
		   fy_node_sequence_item_count(node) > SHAPE_MAX_DIMS) {
		yr_error(r, yr_pos(node, at),
			 "%s: a shape has one to %d dimensions, like [1024, 768], found %d", what,
			 SHAPE_MAX_DIMS, fy_node_sequence_item_count(node));
	} else {
		void *iter = NULL;
		struct fy_node *item;
		ok = true;
		while ((item = fy_node_sequence_iterate(node, &iter)) != NULL)
			ok &= yr_size(r, item, yr_pos(node, at), what, subject,
				      &out->d[out->dims++]);
	}
	free(subject);
	return ok;
}

void yr_shape_list(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
		   struct shape **out, size_t *count)
{
	if (node == NULL || !fy_node_is_sequence(node) || fy_node_sequence_item_count(node) == 0) {
		yr_error(r, yr_pos(node, at),
			 "%s must be a non-empty list of sizes, like [256, 1000], or of shapes, "
			 "like [[1024, 768], [64, 64]], found %s",
			 what, yr_kind(node));
		return;
	}
	void *iter = NULL;
	struct fy_node *item;
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL) {
		struct shape s;
		if (yr_shape(r, item, yr_pos(node, at), what, &s)) {
			*out = xreallocarray(*out, *count + 1, sizeof **out);
			(*out)[(*count)++] = s;
		}
	}
}

unsigned yr_pexpr_dims(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
		       const char *what, unsigned names, struct pexpr out[SHAPE_MAX_DIMS])
{
	if (node == NULL || !fy_node_is_sequence(node))
		return yr_pexpr(r, node, at, what, names, &out[0]) ? 1 : 0;
	int count = fy_node_sequence_item_count(node);
	void *iter = NULL;
	struct fy_node *item;
	/* A flow sequence splits at every comma, a function's arguments' too: the text of
	 * min(M, 4) comes as "min(M" and "4)". */
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL) {
		size_t len;
		const char *text = fy_node_is_scalar(item) ? fy_node_get_scalar(item, &len) : NULL;
		int depth = 0;
		for (size_t i = 0; text && i < len; i++)
			depth += (text[i] == '(') - (text[i] == ')');
		if (depth > 0) {
			yr_error(r, yr_pos(item, at),
				 "%s: '%.*s' is an expression cut at a comma, as a YAML list [...] "
				 "splits at every one: quote an expression that has a comma, "
				 "['%.*s, ...']",
				 what, (int)len, text, (int)len, text);
			return 0;
		}
	}
	if (count < 1 || count > SHAPE_MAX_DIMS) {
		yr_error(r, yr_pos(node, at),
			 "%s takes one to %d expressions, one a dimension (like [N, M]), "
			 "found %d",
			 what, SHAPE_MAX_DIMS, count);
		return 0;
	}
	iter = NULL;
	unsigned dims = 0;
	bool ok = true;
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL)
		ok &= yr_pexpr(r, item, yr_pos(node, at), what, names, &out[dims++]);
	return ok ? dims : 0;
}

void yr_seconds(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
		unsigned max, unsigned *out)
{
	double seconds;
	if (!yr_number(r, node, at, what, &seconds))
		return;
	if (seconds < 1 || seconds > max || seconds != floor(seconds)) {
		yr_error(r, yr_pos(node, at), "%s must be whole seconds from 1 to %u, found %g",
			 what, max, seconds);
		return;
	}
	*out = (unsigned)seconds;
}

struct fy_document *yr_open(struct yaml_reader *r, const char *text, const char *what)
{
	struct fy_diag_cfg dcfg;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = NULL;
	struct fy_diag *fdiag = fy_diag_create(&dcfg);
	if (fdiag == NULL) {
		fprintf(stderr, "clharness: out of memory creating a YAML diagnostics object\n");
		exit(2);
	}
	fy_diag_set_collect_errors(fdiag, true);
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG, .diag = fdiag };

	struct fy_document *doc = NULL;
	size_t len = text ? strlen(text) : 0;
	if (text == NULL) {
		r->source = read_file(r->path, &len);
		if (r->source == NULL) {
			yr_error(r, (struct src_pos){ 0 }, "cannot read the %s: %s", what,
				 file_error(errno));
			goto out;
		}
		text = r->source;
	}
	/* libfyaml loops for ever on some bytes that are not UTF-8 (in a directive), and
	 * YAML is UTF-8 text anyway, so nothing else reaches it. */
	struct src_pos bad;
	if (utf8_find_invalid(text, len, &bad.line, &bad.col)) {
		yr_error(
			r, (struct src_pos){ 1, 1 },
			"the %s is not UTF-8 text: save it as UTF-8 (YAML is read as nothing else)",
			what);
		diag_add(r->diags, DIAG_NOTE, r->path, bad.line, bad.col,
			 "the first byte that is not UTF-8");
		goto out;
	}
	char *why = NULL;
	if (yaml_survives(text, false, false, &why) < 0) {
		yr_error(r, (struct src_pos){ 1, 1 },
			 "%s: this is not a %s it can read; look for a YAML mistake (a '?' key, a "
			 "tab where spaces belong)",
			 why, what);
		free(why);
		goto out;
	}
	doc = fy_document_build_from_string(&pcfg, text, len);
	if (doc == NULL) {
		size_t before = r->errors;
		void *iter = NULL;
		struct fy_diag_error *e;
		while ((e = fy_diag_errors_iterate(fdiag, &iter)) != NULL)
			if (e->type >= FYET_ERROR)
				yr_error(r, (struct src_pos){ e->line, e->column }, "YAML: %s",
					 e->msg);
		if (r->errors == before)
			yr_error(r, (struct src_pos){ 0 }, "not a YAML document");
	}
out:
	fy_diag_destroy(fdiag);
	return doc;
}

void yr_finish(struct yaml_reader *r)
{
	free(r->source);
	r->source = NULL;
	free(r->suggestions);
	r->suggestions = NULL;
	r->nsuggestions = 0;
}

struct pexpr pexpr_copy(const struct pexpr *pe)
{
	struct pexpr copy = { .pos = pe->pos };
	struct expr_error err;
	if (pe->expr && expr_parse(expr_text(pe->expr), &copy.expr, &err) < 0)
		copy.expr = NULL; /* it parsed once: it parses again */
	return copy;
}
