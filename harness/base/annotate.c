/* annotate.c - GitHub Actions workflow commands for errors and warnings (annotate.h). */
#include "config.h"

#include "base/annotate.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The runner shows a few annotations a step; a run with thousands of findings has said
 * what matters long before this many. */
#define ANNOTATIONS_MAX 1000

static struct {
	FILE *out;
	char *workspace;
	pid_t pid;
	char **seen; /* the headings written (level, place, title), each annotated once */
	size_t nseen;
	bool expected; /* annotate_expected */
} annotations;

void annotate_expected(bool expected)
{
	annotations.expected = expected;
}

void annotate_to(FILE *out, const char *workspace)
{
	for (size_t i = 0; i < annotations.nseen; i++)
		free(annotations.seen[i]);
	free(annotations.seen);
	free(annotations.workspace);
	annotations.seen = NULL;
	annotations.nseen = 0;
	annotations.out = out;
	annotations.workspace = workspace && *workspace ? xstrdup(workspace) : NULL;
	annotations.pid = getpid();
}

void annotate_from_environment(FILE *out)
{
	const char *ci = getenv("GITHUB_ACTIONS");
	if (ci && strcmp(ci, "true") == 0)
		annotate_to(out, getenv("GITHUB_WORKSPACE"));
}

/* The runner's escapes: % and line breaks everywhere, and in a property also the
 * characters that end one (: and ,). */
static void escaped(struct strbuf *out, const char *s, bool property)
{
	for (; *s; s++) {
		if (*s == '%')
			strbuf_puts(out, "%25");
		else if (*s == '\r')
			strbuf_puts(out, "%0D");
		else if (*s == '\n')
			strbuf_puts(out, "%0A");
		else if (property && *s == ':')
			strbuf_puts(out, "%3A");
		else if (property && *s == ',')
			strbuf_puts(out, "%2C");
		else
			strbuf_append(out, s, 1);
	}
}

/* A path as the runner matches it against the repository: relative to the workspace. */
static const char *workspace_relative(const char *file)
{
	const char *w = annotations.workspace;
	size_t n = w ? strlen(w) : 0;
	while (n > 1 && w[n - 1] == '/')
		n--;
	if (w && strncmp(file, w, n) == 0 && file[n] == '/')
		return file + n + 1;
	return file;
}

void annotate_format(struct strbuf *out, const char *file, int line, int col,
		     enum diag_severity severity, const char *message)
{
	if (severity == DIAG_NOTE)
		return;
	strbuf_puts(out, annotations.expected	 ? "::notice "
			 : severity == DIAG_ERROR ? "::error "
						  : "::warning ");
	if (file && *file) {
		strbuf_puts(out, "file=");
		escaped(out, workspace_relative(file), true);
		if (line > 0)
			strbuf_printf(out, ",line=%d", line);
		if (line > 0 && col > 0)
			strbuf_printf(out, ",col=%d", col);
		strbuf_puts(out, ",");
	}
	/* The title is the message's headline, the part before its first ": ", " (" or
	 * " [" ("read-write data race on local memory"), so the annotation's heading names
	 * the bug and the same bug at other sizes has the same heading. */
	size_t headline = strlen(message);
	static const char *const ends[] = { ": ", " (", " [" };
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		const char *end = strstr(message, ends[i]);
		if (end && (size_t)(end - message) < headline)
			headline = (size_t)(end - message);
	}
	char *title = xstrndup(message, headline);
	strbuf_puts(out, "title=clharness ");
	escaped(out, title, true);
	free(title);
	strbuf_puts(out, "::");
	escaped(out, message, false);
	strbuf_puts(out, "\n");
}

void annotate_diag(const char *file, int line, int col, enum diag_severity severity,
		   const char *message)
{
	if (annotations.out == NULL || severity == DIAG_NOTE || getpid() != annotations.pid ||
	    annotations.nseen >= ANNOTATIONS_MAX)
		return;
	struct strbuf command = { 0 };
	annotate_format(&command, file, line, col, severity, message);
	/* One annotation a bug at a line: the same finding at another size or on another
	 * target (the part after the title differs) would stack copies on the one line. */
	const char *text = command.data;
	size_t key = (size_t)(strstr(text + 2, "::") - text);
	for (size_t i = 0; i < annotations.nseen; i++)
		if (strncmp(annotations.seen[i], text, key) == 0 && annotations.seen[i][key] == '\0') {
			strbuf_free(&command);
			return;
		}
	annotations.seen =
		xreallocarray(annotations.seen, annotations.nseen + 1, sizeof *annotations.seen);
	annotations.seen[annotations.nseen++] = xstrndup(text, key);
	fputs(text, annotations.out);
	fflush(annotations.out);
	strbuf_free(&command);
}
