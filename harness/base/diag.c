/* diag.c - compiler-style diagnostics: file:line:col: error: message, source line, caret. */
#include "config.h"

#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/annotate.h"

void diag_add(struct diag_list *list, enum diag_severity severity, const char *file, int line,
	      int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *message = xvasprintf(fmt, ap);
	va_end(ap);
	list->items = xreallocarray(list->items, list->count + 1, sizeof *list->items);
	list->items[list->count++] = (struct diag){
		.file = xstrdup(file ? file : ""),
		.line = line,
		.col = col,
		.severity = severity,
		.message = message,
	};
}

void diag_set_code(struct diag_list *list, const char *code)
{
	if (list->count > 0)
		list->items[list->count - 1].code = code;
}

size_t diag_error_count(const struct diag_list *list)
{
	size_t n = 0;
	for (size_t i = 0; i < list->count; i++)
		n += list->items[i].severity == DIAG_ERROR;
	return n;
}

void diag_list_move(struct diag_list *dst, struct diag_list *src)
{
	if (src->count == 0)
		return;
	dst->items = xreallocarray(dst->items, dst->count + src->count, sizeof *dst->items);
	memcpy(dst->items + dst->count, src->items, src->count * sizeof *src->items);
	dst->count += src->count;
	free(src->items);
	src->items = NULL;
	src->count = 0;
}

void diag_list_free(struct diag_list *list)
{
	for (size_t i = 0; i < list->count; i++) {
		free(list->items[i].file);
		free(list->items[i].message);
	}
	free(list->items);
	list->items = NULL;
	list->count = 0;
}

void diag_list_send(struct strbuf *out, const struct diag_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		strbuf_printf(out, "E\t%d\t%d\t%s\n", list->items[i].line, list->items[i].col,
			      list->items[i].message);
}

void diag_take_sent(struct diag_list *list, const char *path, char *fields)
{
	int line = atoi(next_tab_field(&fields));
	int col = atoi(next_tab_field(&fields));
	diag_add(list, DIAG_ERROR, path, line, col, "%s", fields);
}

const char *diag_severity_name(enum diag_severity severity)
{
	switch (severity) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	case DIAG_NOTE:
		return "note";
	}
	return "error";
}

/* The most of one source line a diagnostic quotes. */
enum { QUOTE_MAX = 200 };

/* Returns the text of line `line` (1-based) of `path`, without its newline, or NULL. */
static char *source_line(const char *path, int line)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return NULL;
	struct strbuf sb = { 0 };
	int current = 1;
	int c;
	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			if (current == line)
				break;
			current++;
			continue;
		}
		if (current == line) {
			char ch = (char)c;
			strbuf_append(&sb, &ch, 1);
		}
	}
	fclose(f);
	if (current != line) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_take(&sb);
}

static const char *const severity_colours[] = {
	[DIAG_ERROR] = "\033[1;31m",
	[DIAG_WARNING] = "\033[1;35m",
	[DIAG_NOTE] = "\033[1;36m",
};

void diag_render_header(struct strbuf *out, const char *file, int line, int col,
			enum diag_severity severity, const char *message, bool colour)
{
	const char *bold = colour ? "\033[1m" : "";
	const char *reset = colour ? "\033[0m" : "";

	annotate_diag(file, line, col, severity, message);
	strbuf_printf(out, "%s%s", bold, file && *file ? file : "clharness");
	if (line > 0) {
		strbuf_printf(out, ":%d", line);
		if (col > 0)
			strbuf_printf(out, ":%d", col);
	}
	strbuf_printf(out, ":%s %s%s:%s %s\n", reset, colour ? severity_colours[severity] : "",
		      diag_severity_name(severity), reset, message);
}

void diag_render(struct strbuf *out, const char *file, int line, int col,
		 enum diag_severity severity, const char *message, bool colour)
{
	const char *reset = colour ? "\033[0m" : "";
	diag_render_header(out, file, line, col, severity, message, colour);
	if (file == NULL || line <= 0)
		return;
	char *text = source_line(file, line);
	if (text == NULL)
		return;
	/* A long line (a generated or minified source) is quoted around the column alone. */
	size_t len = strlen(text), from = 0, to = len;
	if (len > QUOTE_MAX) {
		size_t at = col > 0 ? (size_t)col - 1 : 0;
		from = at > QUOTE_MAX / 2 ? at - QUOTE_MAX / 2 : 0;
		if (from + QUOTE_MAX > len)
			from = len - QUOTE_MAX;
		to = from + QUOTE_MAX;
		from = utf8_char_start(text, from);
		/* The end goes forward to the next character's start, so it is whole too. */
		while (to < len && ((unsigned char)text[to] & 0xc0) == 0x80)
			to++;
	}
	char before[48] = "", after[48] = "";
	if (from > 0)
		snprintf(before, sizeof before, "[%zu bytes cut] ", from);
	if (to < len)
		snprintf(after, sizeof after, " [%zu bytes cut]", len - to);
	strbuf_printf(out, " %5d | %s%.*s%s\n", line, before, (int)(to - from), text + from, after);
	if (col > 0 && (size_t)col - 1 >= from && (size_t)col - 1 <= to) {
		strbuf_puts(out, "       | ");
		for (size_t i = 0; before[i]; i++)
			strbuf_append(out, " ", 1);
		/* Tabs stay tabs so the caret lines up under the same column as the text. */
		for (size_t i = from; i < (size_t)col - 1 && text[i] != '\0'; i++)
			strbuf_append(out, text[i] == '\t' ? "\t" : " ", 1);
		strbuf_printf(out, "%s^%s\n", colour ? severity_colours[severity] : "", reset);
	}
	free(text);
}

void diag_list_render(struct strbuf *out, const struct diag_list *list, bool colour)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct diag *d = &list->items[i];
		diag_render(out, d->file, d->line, d->col, d->severity, d->message, colour);
	}
}
