/* includes.c - reads a kernel file's preprocessing directives as the compiler would, to
 * see which files it includes. */
#include "config.h"

#include "grade/includes.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

/* Files one check follows before calling it a loop or a flood. */
#define MAX_FILES 64

/* The source with comments blanked and line continuations joined, keeping for each
 * character the line and column it came from, so a directive split over lines, or one
 * whose '#' follows a comment, reads as the compiler reads it. */
struct logical_text {
	char *text;
	int *line, *col;
	size_t len;
};

static void put(struct logical_text *t, char c, int line, int col)
{
	t->text[t->len] = c;
	t->line[t->len] = line;
	t->col[t->len] = col;
	t->len++;
}

static void logical_text_read(const char *src, size_t n, struct logical_text *t)
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
		if (c == '\\' && i + 1 < n &&
		    (src[i + 1] == '\n' ||
		     (src[i + 1] == '\r' && i + 2 < n && src[i + 2] == '\n'))) {
			i += src[i + 1] == '\r' ? 2 : 1;
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

static void logical_text_free(struct logical_text *t)
{
	free(t->text);
	free(t->line);
	free(t->col);
}

/* Whether `name`, relative to the folder of `from`, stays inside `folder`: the resolved
 * file (links followed) must lie below the folder's real path. *resolved: the file. */
static bool inside(const char *folder, const char *from, const char *name, char **resolved)
{
	*resolved = NULL;
	if (name[0] == '/')
		return false;
	char *from_copy = xstrdup(from);
	char *slash = strrchr(from_copy, '/');
	char *joined = slash ? (*slash = '\0', xasprintf("%s/%s", from_copy, name)) : xstrdup(name);
	free(from_copy);
	char real[PATH_MAX], root[PATH_MAX];
	bool ok = realpath(joined, real) && realpath(folder, root) && path_within(real, root);
	if (ok)
		*resolved = xstrdup(real);
	free(joined);
	return ok;
}

/* Reads the directive whose '#' is at t->text[hash] and whose name starts at i; refuses
 * it in diags when it includes what it may not. Appends an allowed file to *queue.
 * Returns -1 on refusal. */
static int check_directive(const struct logical_text *t, size_t hash, size_t i, const char *path,
			   const char *folder, char ***queue, size_t *nqueue,
			   struct diag_list *diags)
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
	bool includes = (wlen == 7 && strncmp(w, "include", 7) == 0) ||
			(wlen == 12 && strncmp(w, "include_next", 12) == 0) ||
			(wlen == 6 && strncmp(w, "import", 6) == 0) ||
			(wlen == 5 && strncmp(w, "embed", 5) == 0);
	if (!includes)
		return 0;
	while (i < end && (t->text[i] == ' ' || t->text[i] == '\t'))
		i++;
	int line = t->line[hash], col = t->col[hash];
	if (i >= end || t->text[i] != '"') {
		diag_add(diags, DIAG_ERROR, path, line, col,
			 "#%.*s %s: a submission may include only files of its own folder, "
			 "named in quotes (#include \"helpers.h\")",
			 (int)wlen, w,
			 i < end && t->text[i] == '<' ? "names a system file in angle brackets"
						      : "names its file through a macro, which "
							"the grader cannot check");
		return -1;
	}
	size_t name_start = ++i;
	while (i < end && t->text[i] != '"')
		i++;
	char *name = xstrndup(t->text + name_start, i - name_start);
	char *resolved = NULL;
	int status = 0;
	if (folder == NULL) {
		diag_add(diags, DIAG_ERROR, path, line, col,
			 "#%.*s \"%s\": a submission handed in as a lone .cl file may include "
			 "nothing, since the files beside it are not the student's; hand in a "
			 "folder to include files of your own",
			 (int)wlen, w, name);
		status = -1;
	} else if (!inside(folder, path, name, &resolved)) {
		diag_add(diags, DIAG_ERROR, path, line, col,
			 "#%.*s \"%s\" reaches outside the submission's folder %s (or names no "
			 "file there): a submission may include only its own files",
			 (int)wlen, w, name, folder);
		status = -1;
	} else {
		*queue = xreallocarray(*queue, *nqueue + 1, sizeof **queue);
		(*queue)[(*nqueue)++] = resolved;
	}
	free(name);
	return status;
}

/* Checks one file's directives. */
static int check_file(const char *path, const char *folder, char ***queue, size_t *nqueue,
		      struct diag_list *diags)
{
	size_t n;
	char *src = read_file(path, &n);
	if (src == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read it: %s", file_error(errno));
		return -1;
	}
	struct logical_text t;
	logical_text_read(src, n, &t);
	free(src);
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
			status = check_directive(&t, i, i + (c == '%' ? 2 : 1), path, folder, queue,
						 nqueue, diags);
		line_start = false;
	}
	logical_text_free(&t);
	return status;
}

int includes_check(const char *path, const char *folder, struct diag_list *diags)
{
	/* A kernel file that is a link may be anyone's: the reference kernel, a classmate's. */
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		diag_add(diags, DIAG_ERROR, path, 0, 0,
			 "is a symbolic link: hand in the kernel file itself");
		return -1;
	}
	char **queue = NULL;
	size_t nqueue = 0;
	int status = check_file(path, folder, &queue, &nqueue, diags);
	/* The files it includes, each once, breadth first. */
	for (size_t k = 0; k < nqueue && status == 0; k++) {
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(queue[j], queue[k]) == 0;
		if (seen)
			continue;
		if (k >= MAX_FILES) {
			diag_add(diags, DIAG_ERROR, path, 0, 0,
				 "includes over %d files: a submission is a kernel file and a few "
				 "of its own",
				 MAX_FILES);
			status = -1;
			break;
		}
		status = check_file(queue[k], folder, &queue, &nqueue, diags);
	}
	strings_free(queue, (long)nqueue);
	return status;
}
