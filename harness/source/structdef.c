/* structdef.c - struct definitions found in a kernel's source. A scanner, not a compiler:
 * it knows comments, braces and declarations of scalar and vector fields, and says what
 * it cannot read rather than guess. */
#include "config.h"

#include "source/structdef.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/elem.h"

/* The source with every comment turned to spaces, so the scan sees only code. */
static char *without_comments(const char *source)
{
	char *text = xstrdup(source);
	for (char *p = text; *p; p++) {
		if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				*p++ = ' ';
			if (!*p)
				break;
		} else if (p[0] == '/' && p[1] == '*') {
			char *end = strstr(p + 2, "*/");
			char *stop = end ? end + 2 : p + strlen(p);
			for (; p < stop; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		}
	}
	return text;
}

static bool is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The identifier at *p (advancing past it), or NULL. Caller frees. */
static char *word_at(const char **p)
{
	while (isspace((unsigned char)**p))
		(*p)++;
	const char *start = *p;
	while (is_word(**p))
		(*p)++;
	return *p > start ? xstrndup(start, (size_t)(*p - start)) : NULL;
}

/* Whether the word before `at` (skipping spaces) is `word`. */
static bool preceded_by(const char *text, const char *at, const char *word)
{
	const char *p = at;
	while (p > text && isspace((unsigned char)p[-1]))
		p--;
	size_t len = strlen(word);
	return (size_t)(p - text) >= len && strncmp(p - len, word, len) == 0 &&
	       (p - len == text || !is_word(p[-(long)len - 1]));
}

/* Reads one declaration of a struct's body ("float4 pos", "uint a, b") into rec. */
static int read_declaration(const char *decl, struct record *rec, char **why)
{
	if (strchr(decl, '[') || strchr(decl, '*') || strchr(decl, '(')) {
		*why = xasprintf("its field '%s' is an array, a pointer or a function, which "
				 "clharness does not lay out",
				 decl);
		return -1;
	}
	/* The type is every word before the first declarator; drivers' spellings of
	 * unsigned types are normalised as for a parameter. */
	char *copy = xstrdup(decl);
	char *comma = strchr(copy, ',');
	char *first = comma ? xstrndup(copy, (size_t)(comma - copy)) : xstrdup(copy);
	char *last_space = strrchr(first, ' ');
	int status = -1;
	if (last_space == NULL) {
		*why = xasprintf("its declaration '%s' has no type", decl);
		goto out;
	}
	*last_space = '\0';
	struct strbuf type = { 0 };
	for (const char *p = first; *p;) {
		char *w = word_at(&p);
		if (w == NULL) {
			p++;
			continue;
		}
		if (strcmp(w, "const") != 0 && strcmp(w, "volatile") != 0)
			strbuf_printf(&type, "%s%s", type.len ? " " : "", w);
		free(w);
	}
	struct strbuf normal = { 0 };
	kernel_type_normal(&normal, type.data ? type.data : "");
	enum elem_type et;
	unsigned lanes;
	if (elem_type_parse(normal.data, &et, &lanes) < 0) {
		*why = xasprintf("its field type '%s' is no scalar or vector of OpenCL C",
				 type.data ? type.data : "");
	} else {
		/* The declarators: the first's name, then each after a comma. */
		const char *p = last_space + 1;
		char *name = word_at(&p);
		if (name)
			record_add(rec, name, et, lanes);
		free(name);
		for (char *c = comma; c; c = strchr(c + 1, ',')) {
			const char *q = c + 1;
			name = word_at(&q);
			if (name)
				record_add(rec, name, et, lanes);
			free(name);
		}
		status = 0;
	}
	strbuf_free(&normal);
	strbuf_free(&type);
out:
	free(first);
	free(copy);
	return status;
}

/* The fields of the body between braces at open (pointing at '{') and close. */
static int read_body(const char *open, const char *close, struct record **out, char **why)
{
	struct record *rec = xcalloc(1, sizeof *rec);
	char *body = xstrndup(open + 1, (size_t)(close - open - 1));
	int status = 0;
	char *save = NULL;
	for (char *decl = strtok_r(body, ";", &save); decl && status == 0;
	     decl = strtok_r(NULL, ";", &save)) {
		for (char *p = decl; *p; p++)
			if (isspace((unsigned char)*p))
				*p = ' ';
		while (*decl == ' ')
			decl++;
		size_t len = strlen(decl);
		while (len > 0 && decl[len - 1] == ' ')
			decl[--len] = '\0';
		if (len == 0)
			continue;
		if (strchr(decl, '{') || strncmp(decl, "struct ", 7) == 0) {
			*why = xasprintf(
				"its field '%s' is a struct or union, which clharness does "
				"not lay out",
				decl);
			status = -1;
		} else {
			status = read_declaration(decl, rec, why);
		}
	}
	free(body);
	if (status == 0 && rec->nfields == 0) {
		*why = xstrdup("it has no fields");
		status = -1;
	}
	if (status < 0) {
		record_free(rec);
		return -1;
	}
	*out = rec;
	return 0;
}

int structdef_find(const char *source, const char *type, struct record **out, char **why)
{
	char *text = without_comments(source);
	bool tagged = strncmp(type, "struct ", 7) == 0;
	const char *want = tagged ? type + 7 : type;
	char *alias_tag = NULL; /* typedef struct tag want; */
	int status = -1;
	for (int pass = 0; pass < 2 && status == -1; pass++) {
		for (const char *p = text; (p = strstr(p, "struct")) != NULL; p += 6) {
			if ((p > text && is_word(p[-1])) || is_word(p[6]))
				continue;
			bool typedefed = preceded_by(text, p, "typedef");
			const char *q = p + 6;
			char *tag = word_at(&q);
			while (isspace((unsigned char)*q))
				q++;
			if (*q != '{') {
				/* typedef struct tag alias; names the struct by another name. */
				char *alias = typedefed && tag ? word_at(&q) : NULL;
				if (pass == 0 && !tagged && alias && strcmp(alias, want) == 0) {
					free(alias_tag);
					alias_tag = xstrdup(tag);
				}
				free(alias);
				free(tag);
				continue;
			}
			int depth = 0;
			const char *close = q;
			for (; *close; close++) {
				depth += *close == '{';
				depth -= *close == '}';
				if (depth == 0)
					break;
			}
			if (*close != '}') {
				free(tag);
				break;
			}
			const char *r = close + 1;
			char *declarator = word_at(&r);
			bool match = pass == 0 ? (tagged ? tag && strcmp(tag, want) == 0
							 : typedefed && declarator &&
								   strcmp(declarator, want) == 0)
					       : alias_tag && tag && strcmp(tag, alias_tag) == 0;
			free(tag);
			free(declarator);
			if (match) {
				status = read_body(q, close, out, why);
				if (status < 0) {
					char *inner = *why;
					*why = xasprintf("%s: %s", type, inner);
					free(inner);
					status = -2; /* found, but unreadable: stop looking */
				}
				break;
			}
		}
		if (alias_tag == NULL)
			break;
	}
	if (status == -1)
		*why = xasprintf("no definition of %s in the kernel's source", type);
	free(alias_tag);
	free(text);
	return status < 0 ? -1 : 0;
}
