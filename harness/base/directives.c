/* directives.c - finds a source's include directives the way the preprocessor does:
 * comments blanked and line continuations joined first (translation phases 1 to 3), then
 * a '#' (or its digraph) first on a line starts a directive. */
#include "config.h"

#include "base/directives.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static void put(struct logical_text *t, char c, int line, int col)
{
	t->text[t->len] = c;
	t->line[t->len] = line;
	t->col[t->len] = col;
	t->len++;
}

void logical_text_read(const char *src, size_t n, struct logical_text *t)
{
	t->text = xcalloc(n + 1, 1);
	t->line = xcalloc(n + 1, sizeof *t->line);
	t->col = xcalloc(n + 1, sizeof *t->col);
	t->len = 0;
	int line = 1, col = 1;
	char quote = 0;	       /* inside a string or character literal */
	bool block = false;    /* inside a comment */
	bool line_cmt = false; /* inside a // comment */
	for (size_t i = 0; i < n; i++) {
		char c = src[i];
		int at_line = line, at_col = col;
		/* Trigraphs ??= and ??/ stand for # and \ where a compiler reads them. */
		if (c == '?' && i + 2 < n && src[i + 1] == '?' &&
		    (src[i + 2] == '=' || src[i + 2] == '/')) {
			c = src[i + 2] == '=' ? '#' : '\\';
			i += 2;
			col += 2;
		}
		/* Blanks between the backslash and the newline still join the lines, as
		 * compilers read them (with a warning). */
		size_t j = i + 1;
		while (c == '\\' && j < n && (src[j] == ' ' || src[j] == '\t'))
			j++;
		if (c == '\\' && j < n &&
		    (src[j] == '\n' || (src[j] == '\r' && j + 1 < n && src[j + 1] == '\n'))) {
			i = src[j] == '\r' ? j + 1 : j;
			line++;
			col = 1;
			continue;
		}
		if (c == '\n') {
			line++;
			col = 1;
			line_cmt = false;
			quote = 0;
			put(t, '\n', at_line, at_col);
			continue;
		}
		col++;
		if (line_cmt)
			continue;
		if (block) {
			if (c == '*' && i + 1 < n && src[i + 1] == '/') {
				block = false;
				i++;
				col++;
				put(t, ' ', at_line, at_col);
			}
			continue;
		}
		if (quote) {
			if (c == '\\' && i + 1 < n && src[i + 1] != '\n') {
				put(t, c, at_line, at_col);
				c = src[++i];
				col++;
			} else if (c == quote) {
				quote = 0;
			}
			put(t, c, at_line, at_col);
			continue;
		}
		if (c == '/' && i + 1 < n && (src[i + 1] == '*' || src[i + 1] == '/')) {
			block = src[i + 1] == '*';
			line_cmt = !block;
			i++;
			col++;
			continue;
		}
		if (c == '"' || c == '\'')
			quote = c;
		put(t, c, at_line, at_col);
	}
}

void logical_text_free(struct logical_text *t)
{
	free(t->text);
	free(t->line);
	free(t->col);
}

/* Reads the directive whose '#' is at t->text[hash] and whose name starts at i, and hands
 * it to `each` when it includes. */
static int visit_directive(const struct logical_text *t, size_t hash, size_t i,
			   int (*each)(const struct include_directive *d, void *ctx), void *ctx)
{
	size_t end = i;
	while (end < t->len && t->text[end] != '\n')
		end++;
	while (i < end && (t->text[i] == ' ' || t->text[i] == '\t'))
		i++;
	size_t word = i;
	while (i < end && (t->text[i] == '_' || (t->text[i] >= 'a' && t->text[i] <= 'z')))
		i++;
	size_t wlen = i - word;
	const char *w = t->text + word;
	static const char *const family[] = { "include", "include_next", "import", "embed" };
	const char *name_of_word = NULL;
	for (size_t k = 0; k < sizeof family / sizeof *family; k++)
		if (wlen == strlen(family[k]) && strncmp(w, family[k], wlen) == 0)
			name_of_word = family[k];
	if (name_of_word == NULL)
		return 0;
	while (i < end && (t->text[i] == ' ' || t->text[i] == '\t'))
		i++;
	struct include_directive d = { .word = name_of_word, .name = "",
				       .line = t->line[hash], .col = t->col[hash] };
	char *name = NULL;
	if (i < end && (t->text[i] == '"' || t->text[i] == '<')) {
		d.delim = t->text[i];
		char close = d.delim == '<' ? '>' : '"';
		size_t name_start = ++i;
		while (i < end && t->text[i] != close)
			i++;
		name = xstrndup(t->text + name_start, i - name_start);
		d.name = name;
	}
	int status = each(&d, ctx);
	free(name);
	return status;
}

int directives_each_include(const char *src, size_t n,
			    int (*each)(const struct include_directive *d, void *ctx), void *ctx)
{
	struct logical_text t;
	logical_text_read(src, n, &t);
	int status = 0;
	bool line_start = true;
	for (size_t i = 0; i < t.len && status == 0; i++) {
		char c = t.text[i];
		if (c == '\n') {
			line_start = true;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')
			continue;
		/* "%:" is the digraph of '#'. */
		bool hash = c == '#' || (c == '%' && i + 1 < t.len && t.text[i + 1] == ':');
		if (line_start && hash)
			status = visit_directive(&t, i, i + (c == '%' ? 2 : 1), each, ctx);
		line_start = false;
	}
	logical_text_free(&t);
	return status;
}

size_t directives_include_folders(const char *options, char ***dirs)
{
	size_t n = 0;
	*dirs = NULL;
	const char *p = options;
	while (p && *p) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *word = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		const char *dir = NULL;
		size_t dir_len = 0;
		if (strncmp(word, "-I", 2) == 0 && (size_t)(p - word) > 2) {
			dir = word + 2;
			dir_len = (size_t)(p - word) - 2;
		} else if ((size_t)(p - word) == 2 && strncmp(word, "-I", 2) == 0) {
			while (*p == ' ' || *p == '\t')
				p++;
			dir = p;
			while (*p && *p != ' ' && *p != '\t')
				p++;
			dir_len = (size_t)(p - dir);
		}
		if (dir && dir_len > 0) {
			*dirs = xreallocarray(*dirs, n + 1, sizeof **dirs);
			(*dirs)[n++] = xstrndup(dir, dir_len);
		}
	}
	return n;
}

char *directives_map_include_folders(const char *options, char *(*map)(const char *dir, void *ctx),
				     void *ctx)
{
	struct strbuf out = { 0 };
	strbuf_puts(&out, "");
	char *copy = xstrdup(options ? options : "");
	char *save = NULL;
	bool next_is_dir = false;
	for (char *word = strtok_r(copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		const char *dir = next_is_dir ? word
				  : strncmp(word, "-I", 2) == 0 && word[2] ? word + 2
									   : NULL;
		next_is_dir = strcmp(word, "-I") == 0;
		if (next_is_dir)
			continue; /* its folder, the next word, says what it becomes */
		char *mapped = dir ? map(dir, ctx) : NULL;
		if (dir && mapped == NULL)
			continue;
		strbuf_printf(&out, "%s%s%s", out.len ? " " : "", dir ? "-I " : "",
			      dir ? mapped : word);
		free(mapped);
	}
	free(copy);
	return strbuf_take(&out);
}
