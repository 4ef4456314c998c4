/* includes.c - follows a submission's include directives, read as the compiler reads
 * them, to see that every file they reach is the student's own. */
#include "config.h"

#include "grade/includes.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/directives.h"
#include "base/util.h"

/* Files one check follows before calling it a loop or a flood. */
#define MAX_FILES 64

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

/* What one file's directives are checked against, and where allowed files go. */
struct include_check {
	const char *path, *folder;
	char ***queue;
	size_t *nqueue;
	struct diag_list *diags;
};

/* Refuses a directive in diags when it includes what it may not; appends an allowed file
 * to the queue. Returns -1 on refusal. */
static int check_directive(const struct include_directive *d, void *ctx)
{
	struct include_check *c = ctx;
	if (d->delim != '"') {
		diag_add(c->diags, DIAG_ERROR, c->path, d->line, d->col,
			 "#%s %s: a submission may include only files of its own folder, "
			 "named in quotes (#include \"helpers.h\")",
			 d->word,
			 d->delim == '<' ? "names a system file in angle brackets"
					 : "names its file through a macro, which the grader "
					   "cannot check");
		return -1;
	}
	char *resolved = NULL;
	if (c->folder == NULL) {
		diag_add(c->diags, DIAG_ERROR, c->path, d->line, d->col,
			 "#%s \"%s\": a submission handed in as a lone .cl file may include "
			 "nothing, since the files beside it are not the student's; hand in a "
			 "folder to include files of your own",
			 d->word, d->name);
		return -1;
	}
	if (!inside(c->folder, c->path, d->name, &resolved)) {
		diag_add(c->diags, DIAG_ERROR, c->path, d->line, d->col,
			 "#%s \"%s\" reaches outside the submission's folder %s (or names no "
			 "file there): a submission may include only its own files",
			 d->word, d->name, c->folder);
		return -1;
	}
	*c->queue = xreallocarray(*c->queue, *c->nqueue + 1, sizeof **c->queue);
	(*c->queue)[(*c->nqueue)++] = resolved;
	return 0;
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
	struct include_check check = { path, folder, queue, nqueue, diags };
	int status = directives_each_include(src, n, check_directive, &check);
	free(src);
	return status;
}

int includes_check(const char *path, const char *folder, struct diag_list *diags, char ***files,
		   size_t *nfiles)
{
	if (files) {
		*files = NULL;
		*nfiles = 0;
	}
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
	char **reached = xcalloc(1, sizeof *reached);
	size_t nreached = 0;
	reached[nreached++] = xstrdup(path);
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
		reached = xreallocarray(reached, nreached + 1, sizeof *reached);
		reached[nreached++] = xstrdup(queue[k]);
		status = check_file(queue[k], folder, &queue, &nqueue, diags);
	}
	strings_free(queue, (long)nqueue);
	if (files && status == 0) {
		*files = reached;
		*nfiles = nreached;
	} else {
		strings_free(reached, (long)nreached);
	}
	return status;
}
