/* suppress.c - suppressions read from a case's suppress: key or a suppressions file. */
#include "config.h"

#include "case/suppress.h"

#include <libfyaml.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void suppression_list_free_items(struct suppression_list *list);

/* The kinds a suppression may name: those a run's verdict can come from. */
static const char *const kinds[] = { "race", "barrier-divergence", "out-of-bounds", "uninitialized",
				     "async-copy" };
static const char *const spaces[] = { "global", "local", "private", "constant" };

static bool one_of(const char *text, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(text, list[i]) == 0)
			return true;
	return false;
}

/* lines: 14, or [14, 12]: positive whole numbers. */
static void parse_lines(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
			struct suppression *s)
{
	struct src_pos pos = yr_pos(node, at);
	bool list = fy_node_is_sequence(node);
	int n = list ? fy_node_sequence_item_count(node) : 1;
	if (n < 1 || n > 2) {
		yr_error(r, pos, "lines takes one line or a list of two, found %d", n);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct fy_node *item = list ? fy_node_sequence_get_by_index(node, i) : node;
		double v;
		if (!yr_number(r, item, pos, "a line", &v))
			return;
		if (v < 1 || v > 1e7 || v != floor(v)) {
			yr_error(r, yr_pos(item, pos), "a line is a whole number from 1, found %g",
				 v);
			return;
		}
		s->lines[i] = (int)v;
	}
}

static void parse_one(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
		      struct suppression_list *out)
{
	if (!yr_require_mapping(r, node, at, "a suppression"))
		return;
	static const char *const keys[] = { "kind", "kernel", "space", "lines", "why", NULL };
	yr_reject_unknown_keys(r, node, "a suppression", keys);
	struct src_pos pos = yr_pos(node, at);
	struct suppression s = { .file = xstrdup(r->path), .pos = pos };
	size_t before = r->errors;
	s.kind = yr_scalar_at(r, node, "kind", pos, "the finding kind to suppress");
	if (s.kind && !one_of(s.kind, kinds, sizeof kinds / sizeof kinds[0]))
		yr_error(r, yr_key_pos(node, "kind", pos),
			 "unknown finding kind '%s' (known: race, barrier-divergence, "
			 "out-of-bounds, uninitialized, async-copy)",
			 s.kind);
	struct fy_node *v;
	if ((v = yr_get(node, "kernel")) != NULL)
		s.kernel = yr_scalar(r, v, pos, "the kernel's name");
	if ((v = yr_get(node, "space")) != NULL) {
		s.space = yr_scalar(r, v, pos, "a memory space");
		if (s.space && !one_of(s.space, spaces, sizeof spaces / sizeof spaces[0]))
			yr_error(r, yr_pos(v, pos),
				 "unknown memory space '%s' (known: global, local, private, "
				 "constant)",
				 s.space);
	}
	if ((v = yr_get(node, "lines")) != NULL)
		parse_lines(r, v, pos, &s);
	if ((v = yr_get(node, "why")) != NULL)
		s.why = yr_scalar(r, v, pos, "why the finding is intended");
	if (r->errors != before) {
		struct suppression_list dropped = { &s, 1 };
		suppression_list_free_items(&dropped);
		return;
	}
	out->items = xreallocarray(out->items, out->count + 1, sizeof *out->items);
	out->items[out->count++] = s;
}

void suppressions_parse(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
			struct suppression_list *out)
{
	if (node == NULL || !fy_node_is_sequence(node)) {
		yr_error(r, yr_pos(node, at),
			 "suppressions are a list, each {kind: race, kernel: NAME, space: local, "
			 "lines: [14, 12], why: ...}; found %s",
			 yr_kind(node));
		return;
	}
	void *iter = NULL;
	struct fy_node *item;
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL)
		parse_one(r, item, at, out);
}

int suppressions_load(const char *path, struct suppression_list *out, struct diag_list *diags)
{
	struct yaml_reader r = { .path = path, .diags = diags };
	struct fy_document *doc = yr_open(&r, NULL, "suppressions file");
	if (doc) {
		suppressions_parse(&r, fy_document_root(doc), (struct src_pos){ 1, 1 }, out);
		fy_document_destroy(doc);
	}
	yr_finish(&r);
	return doc && r.errors == 0 ? 0 : -1;
}

void suppression_list_free(struct suppression_list *list)
{
	suppression_list_free_items(list);
	free(list->items);
	*list = (struct suppression_list){ 0 };
}

static void suppression_list_free_items(struct suppression_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		struct suppression *s = &list->items[i];
		free(s->kernel);
		free(s->kind);
		free(s->space);
		free(s->why);
		free(s->file);
	}
}

char *suppression_text(const struct suppression *s)
{
	struct strbuf out = { 0 };
	strbuf_puts(&out, s->kind);
	if (s->space)
		strbuf_printf(&out, " on %s memory", s->space);
	if (s->lines[1])
		strbuf_printf(&out, " at lines %d and %d", s->lines[0], s->lines[1]);
	else if (s->lines[0])
		strbuf_printf(&out, " at line %d", s->lines[0]);
	if (s->kernel)
		strbuf_printf(&out, " in kernel %s", s->kernel);
	return strbuf_take(&out);
}
