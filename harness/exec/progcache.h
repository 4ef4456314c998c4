/* progcache.h - program binaries kept on disk between runs, so that a program built once
 * on a target is loaded, not compiled, the next time: PoCL preprocesses every source to
 * look up its own cache and Oclgrind compiles every program afresh, which together were
 * most of a warm catalogue run's set-up.
 *
 * An entry is keyed by everything the binary depends on: the target's device, platform
 * and driver version, the build options, the source, and the contents of every file its
 * include directives can reach (in the source's folder, the working folder and each -I
 * folder). The key is kept whole in the entry and compared byte for byte on loading, so a
 * hash collision can cost a rebuild but never give the wrong program. Only successful
 * builds are kept; an entry that does not load is built from source again.
 *
 * The folder is $CLHARNESS_CACHE_DIR, else $XDG_CACHE_HOME/clharness/programs, else
 * ~/.cache/clharness/programs; CLHARNESS_CACHE_DIR=off keeps nothing. */
#ifndef CLH_PROGCACHE_H
#define CLH_PROGCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* The folder entries live in (created on first store); NULL when caching is off or no
 * folder can be named. Caller frees. */
char *progcache_dir(void);

/* The folder `name` beside the program cache's own, in the folder that holds it
 * (~/.cache/clharness/NAME); NULL when caching is off. Caller frees. */
char *progcache_beside(const char *name);

/* In a worker of a run with a cache of its own (run_options.private_cache): from now on
 * this process stores entries in `dir` alone, and looks for them there before the shared
 * folder, which it only reads. */
void progcache_set_private(const char *dir);
/* That folder, or NULL where the process stores in the shared one. */
const char *progcache_private_dir(void);

/* Appends to `key` what a binary built from `source` (read from `path`) with `options`
 * on the target described by `target_id` depends on, following include directives as the
 * preprocessor reads them. Returns false when the key cannot hold all of it: a directive
 * names its file through a macro, whose expansion only the compiler knows, so such a
 * program must be built and not kept. */
bool progcache_key(struct strbuf *key, const char *target_id, const char *path,
		   const char *source, size_t len, const char *options);

/* The binary stored under `key` in `dir`, or NULL (no entry, a mark, another key's, or
 * one that cannot be read). *seen, where given: whether `dir` holds an entry of this key,
 * a binary or a mark. Caller frees. */
unsigned char *progcache_load(const char *dir, const struct strbuf *key, size_t *len, bool *seen);

/* Stores `binary` under `key` in `dir`, replacing any entry at once so that a reader in
 * another process never sees half of one. Failing to store is no error: the next run
 * builds again. */
void progcache_store(const char *dir, const struct strbuf *key, const unsigned char *binary,
		     size_t len);

/* Leaves an entry of `key` without a binary: the program was built here once. For a
 * driver whose binaries cost a build of their own to hand out (PoCL), a binary is worth
 * storing only for a program built more than once (a grader builds a submission in each
 * of its checks; one catalogue run builds each program once). */
void progcache_mark(const char *dir, const struct strbuf *key);

#endif
