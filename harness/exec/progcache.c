/* progcache.c - program binaries kept on disk between runs (progcache.h). */
#include "config.h"

#include "exec/progcache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/directives.h"

#define ENTRY_MAGIC "clharness-program 1"
/* How deep #include lines are followed, and how many files at most: enough for any
 * kernel's headers, and a bound for an include cycle the visited list misses. */
#define MAX_INCLUDE_DEPTH 16
#define MAX_INCLUDE_FILES 256

char *progcache_dir(void)
{
	const char *own = getenv("CLHARNESS_CACHE_DIR");
	if (own && strcmp(own, "off") == 0)
		return NULL;
	if (own && *own)
		return xstrdup(own);
	const char *xdg = getenv("XDG_CACHE_HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/clharness/programs", xdg);
	const char *home = getenv("HOME");
	if (home && *home == '/')
		return xasprintf("%s/.cache/clharness/programs", home);
	return NULL;
}

char *progcache_beside(const char *name)
{
	char *dir = progcache_dir();
	char *slash = dir ? strrchr(dir, '/') : NULL;
	char *beside = NULL;
	if (slash && slash != dir) {
		*slash = '\0';
		beside = xasprintf("%s/%s", dir, name);
	}
	free(dir);
	return beside;
}

static char *private_dir;

void progcache_set_private(const char *dir)
{
	free(private_dir);
	private_dir = dir ? xstrdup(dir) : NULL;
}

const char *progcache_private_dir(void)
{
	return private_dir;
}

struct include_walk {
	struct strbuf *key;
	char **dirs; /* the folder of the top source, ".", then each -I folder */
	size_t ndirs;
	char **seen;
	size_t nseen;
	bool macro_named; /* a directive names its file through a macro */
};

static bool seen_before(struct include_walk *w, const char *path)
{
	for (size_t i = 0; i < w->nseen; i++)
		if (strcmp(w->seen[i], path) == 0)
			return true;
	return false;
}

static void add_source(struct include_walk *w, const char *text, size_t len, const char *own_dir,
		       unsigned depth);

/* Puts into the key every file an #include of `name` could open, with its contents, and
 * what those include in turn. A name found nowhere is a header of the driver's own, which
 * the driver version in the key covers. */
static void add_include(struct include_walk *w, const char *name, const char *own_dir,
			unsigned depth)
{
	strbuf_printf(w->key, "include %s\n", name);
	for (size_t d = 0; d <= w->ndirs; d++) {
		const char *dir = d == 0 ? own_dir : w->dirs[d - 1];
		if (dir == NULL)
			continue;
		char *path = name[0] == '/' ? xstrdup(name) : xasprintf("%s/%s", dir, name);
		if (seen_before(w, path) || w->nseen >= MAX_INCLUDE_FILES) {
			free(path);
			continue;
		}
		size_t len;
		char *text = read_file(path, &len);
		if (text == NULL) {
			free(path);
			continue;
		}
		w->seen = xreallocarray(w->seen, w->nseen + 1, sizeof *w->seen);
		w->seen[w->nseen++] = path;
		strbuf_printf(w->key, "file %s %zu\n", path, len);
		strbuf_append(w->key, text, len);
		char *slash = strrchr(path, '/');
		char *its_dir = xstrndup(path, (size_t)(slash - path));
		if (depth < MAX_INCLUDE_DEPTH)
			add_source(w, text, len, its_dir, depth + 1);
		free(its_dir);
		free(text);
	}
}

struct source_walk {
	struct include_walk *walk;
	const char *own_dir;
	unsigned depth;
};

static int follow_directive(const struct include_directive *d, void *ctx)
{
	struct source_walk *s = ctx;
	if (d->delim == 0)
		s->walk->macro_named = true;
	else if (d->name[0] != '\0')
		add_include(s->walk, d->name, s->own_dir, s->depth);
	return 0;
}

/* Follows the include directives of one file, read as the preprocessor reads them. */
static void add_source(struct include_walk *w, const char *text, size_t len, const char *own_dir,
		       unsigned depth)
{
	struct source_walk s = { w, own_dir, depth };
	directives_each_include(text, len, follow_directive, &s);
}

bool progcache_key(struct strbuf *key, const char *target_id, const char *path,
		   const char *source, size_t len, const char *options)
{
	strbuf_printf(key, "%s\nclharness %s\ntarget %s\noptions %s\nsource %zu\n", ENTRY_MAGIC,
		      PACKAGE_VERSION, target_id, options ? options : "", len);
	strbuf_append(key, source, len);
	struct include_walk w = { .key = key };
	w.ndirs = directives_include_folders(options, &w.dirs);
	/* The working folder is where drivers look for a quoted include besides -I. */
	w.dirs = xreallocarray(w.dirs, w.ndirs + 1, sizeof *w.dirs);
	memmove(w.dirs + 1, w.dirs, w.ndirs * sizeof *w.dirs);
	w.dirs[0] = xstrdup(".");
	w.ndirs++;
	const char *slash = strrchr(path, '/');
	char *own_dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	add_source(&w, source, len, own_dir, 0);
	free(own_dir);
	strings_free(w.dirs, (long)w.ndirs);
	strings_free(w.seen, (long)w.nseen);
	return !w.macro_named;
}

static char *entry_path(const char *dir, const struct strbuf *key)
{
	return xasprintf("%s/%016" PRIx64 ".bin", dir, fnv1a(FNV1A_START, key->data, key->len));
}

unsigned char *progcache_load(const char *dir, const struct strbuf *key, size_t *len, bool *seen)
{
	if (seen)
		*seen = false;
	char *path = entry_path(dir, key);
	size_t size;
	char *entry = read_file(path, &size);
	free(path);
	if (entry == NULL)
		return NULL;
	unsigned char *binary = NULL;
	size_t key_len = 0, binary_len = 0;
	int header = 0;
	if (sscanf(entry, ENTRY_MAGIC " %zu %zu\n%n", &key_len, &binary_len, &header) == 2 &&
	    header > 0 && key_len == key->len &&
	    (size_t)header + key_len + binary_len == size &&
	    memcmp(entry + header, key->data, key_len) == 0) {
		if (seen)
			*seen = true;
		if (binary_len > 0) {
			binary = xmalloc(binary_len);
			memcpy(binary, entry + header + key_len, binary_len);
			*len = binary_len;
		}
	}
	free(entry);
	return binary;
}

/* Writes the entry of `key` holding `len` bytes of binary (none: a mark), replacing any
 * entry at once. */
static void write_entry(const char *dir, const struct strbuf *key, const unsigned char *binary,
			size_t len)
{
	if (!make_dirs(dir))
		return;
	char *path = entry_path(dir, key);
	char *temp = xasprintf("%s.XXXXXX", path);
	int fd = mkstemp(temp);
	if (fd >= 0) {
		char header[64];
		int n = snprintf(header, sizeof header, ENTRY_MAGIC " %zu %zu\n", key->len, len);
		bool written = write_all(fd, header, (size_t)n) &&
			       write_all(fd, key->data, key->len) &&
			       (len == 0 || write_all(fd, binary, len));
		if (close(fd) != 0 || !written || rename(temp, path) != 0)
			unlink(temp);
	}
	free(temp);
	free(path);
}

void progcache_store(const char *dir, const struct strbuf *key, const unsigned char *binary,
		     size_t len)
{
	if (len > 0)
		write_entry(dir, key, binary, len);
}

void progcache_mark(const char *dir, const struct strbuf *key)
{
	write_entry(dir, key, NULL, 0);
}
