/* buildlog.c - finds the first error in an OpenCL compiler's build log. */
#include "config.h"

#include "exec/buildlog.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Parses ":LINE:COL:" at p; returns the character after it, or NULL. */
static const char *position(const char *p, int *line, int *col)
{
	if (*p != ':' || !isdigit((unsigned char)p[1]))
		return NULL;
	char *end;
	long l = strtol(p + 1, &end, 10);
	if (*end != ':' || !isdigit((unsigned char)end[1]))
		return NULL;
	long c = strtol(end + 1, &end, 10);
	if (*end != ':')
		return NULL;
	*line = (int)l;
	*col = (int)c;
	return end + 1;
}

bool buildlog_first_error(const char *log, int *line, int *col, char **message)
{
	for (const char *start = log; start && *start;) {
		const char *nl = strchr(start, '\n');
		size_t len = nl ? (size_t)(nl - start) : strlen(start);
		char *text = xstrndup(start, len);
		start = nl ? nl + 1 : NULL;
		if (strstr(text, "error") == NULL) {
			free(text);
			continue;
		}
		for (const char *p = text; *p; p++) {
			const char *rest = position(p, line, col);
			if (rest == NULL)
				continue;
			while (*rest == ' ')
				rest++;
			if (strncmp(rest, "fatal error:", 12) == 0)
				rest += 12;
			else if (strncmp(rest, "error:", 6) == 0)
				rest += 6;
			while (*rest == ' ')
				rest++;
			*message = xstrdup(rest);
			free(text);
			return true;
		}
		free(text);
	}
	return false;
}

/* Whether `name` (len bytes) is how a driver names source it was handed in memory. */
static bool driver_source_name(const char *name, size_t len)
{
	const char *base = name;
	for (size_t i = 0; i < len; i++)
		if (name[i] == '/')
			base = name + i + 1;
	size_t blen = len - (size_t)(base - name);
	return (blen > 9 && strncmp(base, "tempfile_", 9) == 0) ||
	       (blen == 8 && strncmp(base, "<source>", 8) == 0) ||
	       (blen == 8 && strncmp(base, "<kernel>", 8) == 0) ||
	       (blen == 8 && base == name && strncmp(base, "input.cl", 8) == 0);
}

char *buildlog_name_source(const char *log, const char *path)
{
	struct strbuf out = { 0 };
	const char *copied = log;
	for (const char *p = log; *p; p++) {
		int line, col;
		if (*p != ':' || position(p, &line, &col) == NULL)
			continue;
		const char *start = p;
		while (start > copied && !isspace((unsigned char)start[-1]))
			start--;
		if (start == p || !driver_source_name(start, (size_t)(p - start)))
			continue;
		strbuf_append(&out, copied, (size_t)(start - copied));
		strbuf_puts(&out, path);
		copied = p;
	}
	strbuf_puts(&out, copied);
	return strbuf_take(&out);
}

char *buildlog_hint(const char *message)
{
	const char *lead = "use of undeclared identifier '";
	const char *at = message ? strstr(message, lead) : NULL;
	if (at == NULL)
		return NULL;
	const char *name = at + strlen(lead);
	size_t len = strcspn(name, "'");
	bool capitals = len > 0 && name[len] == '\'';
	for (size_t i = 0; i < len && capitals; i++)
		capitals = isupper((unsigned char)name[i]) || isdigit((unsigned char)name[i]) ||
			   name[i] == '_';
	if (!capitals)
		return NULL;
	return xasprintf("if the application defines %.*s when it builds the program, give it "
			 "as it does: -D %.*s=VALUE to check and hunt, options: -D%.*s=VALUE in a "
			 "case",
			 (int)len, name, (int)len, name, (int)len, name);
}
