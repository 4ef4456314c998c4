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
