/* walk.h - the files under the folders a user names: regular files only, each real file
 * once, however symbolic links loop or alias one another. */
#ifndef CLH_WALK_H
#define CLH_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

struct file_id;

struct walk {
	char **paths; /* what was found, in the order found; each folder's entries sorted */
	size_t count;
	struct file_id *seen; /* every file and folder taken or entered so far */
	size_t nseen;
};

/* Adds `path`: a file as it is (whatever its name, since the user named it), a folder by
 * every visible entry below it whose name `wanted` accepts. A folder met a second time
 * (through a link, or a link back to a folder above) is not entered again, a file met a
 * second time is not taken again, and an entry that is not a regular file is skipped
 * with a warning in `diags`: a FIFO would block its reader. Returns -1, with errno set,
 * when `path` itself cannot be read; folders below it that cannot be read are warnings. */
int walk_add(struct walk *w, const char *path, bool (*wanted)(const char *name),
	     struct diag_list *diags);
/* Whether walk_add has met `path` already: taken it, entered it, or found it below a
 * folder it entered. */
bool walk_met(const struct walk *w, const char *path);
void walk_free(struct walk *w);

#endif
