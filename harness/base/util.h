/* util.h - allocation that cannot fail quietly, growable strings, monotonic time. */
#ifndef CLH_UTIL_H
#define CLH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Out of memory is the one fatal error: these print and exit(2) instead of returning NULL. */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
/* xcalloc for arrays of many megabytes, written once through: where the kernel offers
 * transparent huge pages on request, asks for them, since at 2^28 elements a page fault
 * every 4 KiB costs more than the writes themselves. Freed with free(). */
void *xcalloc_bulk(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
void *xreallocarray(void *ptr, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a newly allocated formatted string; the caller frees it. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A growable NUL-terminated string. A zeroed struct is an empty buffer. */
struct strbuf {
	char *data;
	size_t len;
	size_t cap;
};

void strbuf_append(struct strbuf *sb, const char *s, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the string to the caller (never NULL) and leaves the buffer empty. */
char *strbuf_take(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

/* The start of the UTF-8 character that byte `at` of `s` belongs to, so that a cut there
 * never splits one. */
size_t utf8_char_start(const char *s, size_t at);
/* Cuts *text (a string the caller owns, or NULL) to about `max` bytes where it is longer:
 * its start and its end stay, and a line in between says how much of the `what` ("build
 * log") was cut. Returns whether it cut. */
bool text_cut(char **text, size_t max, const char *what);

/* `bytes` in the largest binary unit that keeps it at least 1 ("1.5 GiB"), written to
 * buf; returns buf. */
const char *human_bytes(uint64_t bytes, char *buf, size_t size);

/* Nanoseconds on a clock that never goes back; only differences mean anything. */
uint64_t clock_now_ns(void);

/* FNV-1a over len bytes, from `h` (FNV1A_START for a fresh hash): a fingerprint, not a
 * defence against a forger. */
#define FNV1A_START 0xcbf29ce484222325u
uint64_t fnv1a(uint64_t h, const void *data, size_t len);

/* What the open file `fd` holds from `offset` to its end, NUL-terminated; "" when there is
 * nothing there. Caller frees. */
char *read_fd_from(int fd, long long offset);

/* Reads a whole regular file into a NUL-terminated buffer; NULL with errno set on failure,
 * EINVAL for what is not a regular file (a FIFO or a device could block for ever). */
char *read_file(const char *path, size_t *len);
/* A template for mkstemp in $TMPDIR (else /tmp): clharness-WHAT-XXXXXX. Caller frees. */
char *temp_path(const char *what);
/* A file of this process's alone, read and written through the descriptor returned (-1
 * with errno set on failure): in memory where the system offers it (memfd_create), else
 * a temporary file already removed. It goes when its last descriptor closes. */
int anon_file(const char *what);
/* Writes `text` to dir/name, replacing it at once. Returns -1 with errno set on failure. */
int write_text_file(const char *dir, const char *name, const char *text);
/* Writes or reads all `len` bytes, going on after EINTR and short counts; false when the
 * descriptor fails or (reading) ends first. */
bool write_all(int fd, const void *buf, size_t len);
bool read_all(int fd, void *buf, size_t len);
/* write_all to a pipe whose reader may be gone (a child that died): that fails the write
 * (EPIPE) rather than ending this process by SIGPIPE. */
bool write_all_to_pipe(int fd, const void *buf, size_t len);
/* Points `fd` (STDOUT_FILENO, STDERR_FILENO) at /dev/null, so what is written there goes
 * nowhere. */
void redirect_to_null(int fd);
/* strerror, but "not a regular file" for read_file's EINVAL. */
const char *file_error(int errnum);
/* Whether the first `len` bytes of `text` hold anything that is not UTF-8; where they do,
 * *line and *col (1-based, columns in characters) place the first such byte. */
bool utf8_find_invalid(const char *text, size_t len, int *line, int *col);

/* The paths of the entries of folder `dir`, sorted, so that nothing depends on the order
 * the file system keeps; names starting with '.' only when `hidden`. Returns how many (the
 * caller frees them with strings_free), or -1 with errno set when dir cannot be read. */
long dir_entries(const char *dir, bool hidden, char ***paths);
void strings_free(char **strings, long count);
bool is_dir(const char *path);
/* Makes the folder `dir` and its parents where missing; false when one cannot be made. */
bool make_dirs(const char *dir);
/* Removes `path` and everything beneath it, following no link. Returns 0, or -1 with
 * errno set by the first removal that failed. */
int remove_tree(const char *path);
bool has_suffix(const char *s, const char *suffix);

/* The readable file `file` names, relative to the folder of the file `from` or of any
 * folder above it (absolute: itself), so a catalogue works wherever it is installed and
 * a user's file can sit beside what it names. NULL when there is none; caller frees. */
char *find_upwards(const char *from, const char *file);
/* The real path of the catalogue that the file or folder `path` is in (the folder above
 * its last "cases" folder), or NULL when it is in none. Caller frees. */
char *catalogue_root(const char *path);
/* Whether the relative path `relative` is absolute or has a ".." part. */
bool climbs_out(const char *relative);
/* Whether the real path of `path`, links resolved, lies inside the real folder `root`. */
bool path_within(const char *path, const char *root);

/* The fewest significant digits, from 9 (enough for a float) to 17 (for a double), at
 * which %.*g writes a and b differently, so two values that differ never read alike;
 * 9 where they are equal. */
int digits_to_differ(double a, double b);

/* The one of `count` names nearest `wanted` by edit distance (insertions, deletions,
 * substitutions), where one is within two edits of it (a typo, for a "did you mean"), the
 * first of the nearest; NULL where none is. Names past 32 characters are never near. */
const char *nearest_name(const char *wanted, const char *const *names, size_t count);

/* The next tab-separated field of *line, cut out in place: the line protocols of the
 * harness's child processes. */
char *next_tab_field(char **line);

#endif
