/* walk.c - finds files under folders, by device and inode so that no link makes a file
 * count twice or a folder loop. */
#include "config.h"

#include "base/walk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

struct file_id {
	dev_t dev;
	ino_t ino;
};

static bool seen(const struct walk *w, const struct stat *st)
{
	for (size_t i = 0; i < w->nseen; i++)
		if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
			return true;
	return false;
}

/* Records st's file as seen; false when it was already. */
static bool first_visit(struct walk *w, const struct stat *st)
{
	if (seen(w, st))
		return false;
	w->seen = xreallocarray(w->seen, w->nseen + 1, sizeof *w->seen);
	w->seen[w->nseen++] = (struct file_id){ st->st_dev, st->st_ino };
	return true;
}

static void take(struct walk *w, const char *path)
{
	w->paths = xreallocarray(w->paths, w->count + 1, sizeof *w->paths);
	w->paths[w->count++] = xstrdup(path);
}

/* Returns -1, with errno set, when `dir` cannot be read. */
static int walk_dir(struct walk *w, const char *dir, bool (*wanted)(const char *name),
		    struct diag_list *diags)
{
	char **entries;
	long n = dir_entries(dir, false, &entries);
	if (n < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		struct stat st;
		if (stat(entries[i], &st) < 0) {
			/* A dangling link is not a case the user meant. */
			if (wanted(entries[i]))
				diag_add(diags, DIAG_WARNING, entries[i], 0, 0,
					 "skipped: cannot read it: %s", strerror(errno));
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (first_visit(w, &st) && walk_dir(w, entries[i], wanted, diags) < 0)
				diag_add(diags, DIAG_WARNING, entries[i], 0, 0,
					 "skipped: cannot read the folder: %s", strerror(errno));
		} else if (wanted(entries[i])) {
			if (!S_ISREG(st.st_mode))
				diag_add(diags, DIAG_WARNING, entries[i], 0, 0,
					 "skipped: not a regular file");
			else if (first_visit(w, &st))
				take(w, entries[i]);
		}
	}
	strings_free(entries, n);
	return 0;
}

int walk_add(struct walk *w, const char *path, bool (*wanted)(const char *name),
	     struct diag_list *diags)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		if (first_visit(w, &st))
			take(w, path);
		return 0;
	}
	return first_visit(w, &st) ? walk_dir(w, path, wanted, diags) : 0;
}

bool walk_met(const struct walk *w, const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && seen(w, &st);
}

void walk_free(struct walk *w)
{
	strings_free(w->paths, (long)w->count);
	free(w->seen);
	*w = (struct walk){ 0 };
}
