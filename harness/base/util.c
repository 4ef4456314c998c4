/* util.c - allocation that cannot fail quietly, growable strings, monotonic time. */
#include "config.h"

#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(size_t size)
{
	fprintf(stderr, "clharness: out of memory (asked for %zu bytes)\n", size);
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (p == NULL)
		out_of_memory(count * size);
	return p;
}

void *xcalloc_bulk(size_t count, size_t size)
{
	void *p = xcalloc(count, size);
	size_t bytes = count * size;
	const uintptr_t huge = (uintptr_t)2 << 20;
	/* Past glibc's mmap threshold calloc hands out fresh zero pages untouched, so the
	 * advice comes before the first fault: 2 MiB pages where the kernel does
	 * transparent huge pages on request. */
	if (bytes >= 2 * huge) {
		uintptr_t begin = ((uintptr_t)p + huge - 1) & ~(huge - 1);
		uintptr_t end = ((uintptr_t)p + bytes) & ~(huge - 1);
		if (end > begin)
			madvise((void *)begin, end - begin, MADV_HUGEPAGE);
	}
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (p == NULL)
		out_of_memory(size);
	return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(ptr, count * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int len = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (len < 0)
		out_of_memory(0);
	char *p = xmalloc((size_t)len + 1);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void strbuf_append(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 64;
		while (cap < sb->len + n + 1)
			cap *= 2;
		sb->data = xrealloc(sb->data, cap);
		sb->cap = cap;
	}
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_append(sb, s, strlen(s));
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	strbuf_puts(sb, s);
	free(s);
}

char *strbuf_take(struct strbuf *sb)
{
	char *s = sb->data ? sb->data : xstrdup("");
	sb->data = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

uint64_t clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

char *read_file(const char *path, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int saved = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = saved;
		return NULL;
	}
	struct strbuf sb = { 0 };
	char chunk[8192];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;
			close(fd);
			strbuf_free(&sb);
			errno = saved;
			return NULL;
		}
		strbuf_append(&sb, chunk, (size_t)n);
	}
	close(fd);
	if (len)
		*len = sb.len;
	return strbuf_take(&sb);
}

char *temp_path(const char *what)
{
	const char *dir = getenv("TMPDIR");
	return xasprintf("%s/clharness-%s-XXXXXX", dir && *dir ? dir : "/tmp", what);
}

int anon_file(const char *what)
{
#ifdef HAVE_MEMFD_CREATE
	int fd = memfd_create(what, MFD_CLOEXEC);
	if (fd >= 0 || errno != ENOSYS)
		return fd;
#endif
	char *path = temp_path(what);
	int temp = mkstemp(path);
	if (temp >= 0)
		unlink(path);
	free(path);
	return temp;
}

int write_text_file(const char *dir, const char *name, const char *text)
{
	/* A fresh name that mkstemp creates (O_EXCL, so never through a link planted in the
	 * folder), renamed over `name`: rename replaces a link rather than writing where it
	 * points, and a reader never sees half a report. */
	char *temp = xasprintf("%s/.%s.XXXXXX", dir, name);
	char *path = xasprintf("%s/%s", dir, name);
	int status = -1;
	int fd = mkstemp(temp);
	if (fd < 0)
		goto out;
	/* mkstemp makes the file private; a report is read by whoever reads the folder. */
	bool written =
		write_all(fd, text ? text : "", text ? strlen(text) : 0) && fchmod(fd, 0644) == 0;
	if (close(fd) == 0 && written && rename(temp, path) == 0)
		status = 0;
	else
		unlink(temp);
out:
	free(temp);
	free(path);
	return status;
}

bool write_all(int fd, const void *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

bool write_all_to_pipe(int fd, const void *buf, size_t len)
{
	/* A reader that is gone makes the write raise SIGPIPE, which would end this process:
	 * hold the signal for the write and swallow it, leaving the process's own handling
	 * alone. */
	sigset_t pipe_only, old;
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_only, &old);
	bool written = write_all(fd, buf, len);
	if (!written && errno == EPIPE) {
		struct timespec now = { 0, 0 };
		sigtimedwait(&pipe_only, NULL, &now);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return written;
}

void redirect_to_null(int fd)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, fd);
		close(null);
	}
}

bool read_all(int fd, void *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

const char *file_error(int errnum)
{
	return errnum == EINVAL ? "not a regular file" : strerror(errnum);
}

/* The length of the UTF-8 sequence at s (at most `left` bytes), or 0 where none starts:
 * overlong forms, surrogates and code points past U+10FFFF are not UTF-8 (RFC 3629). */
static size_t utf8_sequence(const unsigned char *s, size_t left)
{
	if (s[0] < 0x80)
		return 1;
	size_t n = s[0] >= 0xc2 && s[0] <= 0xdf	  ? 2
		   : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
						  : 0;
	if (n == 0 || n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

bool utf8_find_invalid(const char *text, size_t len, int *line, int *col)
{
	const unsigned char *s = (const unsigned char *)text;
	*line = *col = 1;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_sequence(s + i, len - i);
		if (n == 0)
			return true;
		if (s[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
		i += n;
	}
	return false;
}

size_t utf8_char_start(const char *s, size_t at)
{
	while (at > 0 && ((unsigned char)s[at] & 0xc0) == 0x80)
		at--;
	return at;
}

bool text_cut(char **text, size_t max, const char *what)
{
	size_t len = *text ? strlen(*text) : 0;
	if (len <= max)
		return false;
	/* The head holds the first errors; the tail, how the tool summed up. */
	size_t head = utf8_char_start(*text, max / 4 * 3);
	size_t tail = utf8_char_start(*text, len - max / 4);
	char size[32];
	char *cut = xasprintf("%.*s\n[... %s of the %s cut here ...]\n%s", (int)head, *text,
			      human_bytes(tail - head, size, sizeof size), what, *text + tail);
	free(*text);
	*text = cut;
	return true;
}

const char *human_bytes(uint64_t bytes, char *buf, size_t size)
{
	const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
	return buf;
}

char *read_fd_from(int fd, long long offset)
{
	off_t size = lseek(fd, 0, SEEK_END);
	if (size <= offset)
		return xstrdup("");
	char *text = xmalloc((size_t)(size - offset) + 1);
	ssize_t n = pread(fd, text, (size_t)(size - offset), offset);
	text[n > 0 ? n : 0] = '\0';
	return text;
}

/* The climb is lexical ("a/b/" -> "a/" -> "" -> "../") to keep reported paths short. */
char *find_upwards(const char *from, const char *file)
{
	if (file[0] == '/')
		return access(file, R_OK) == 0 ? xstrdup(file) : NULL;
	char *dir = xstrdup(from);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	for (;;) {
		char *candidate = xasprintf("%s%s", dir, file);
		if (access(candidate, R_OK) == 0) {
			free(dir);
			return candidate;
		}
		free(candidate);
		char *real = realpath(*dir ? dir : ".", NULL);
		bool at_root = real == NULL || strcmp(real, "/") == 0;
		free(real);
		if (at_root)
			break;
		size_t len = strlen(dir);
		size_t start = len > 0 ? len - 1 : 0; /* the trailing '/' */
		while (start > 0 && dir[start - 1] != '/')
			start--;
		const char *last = dir + start;
		if (len == 0 || strncmp(last, "../", 3) == 0) {
			char *up = xasprintf("%s../", dir);
			free(dir);
			dir = up;
		} else {
			dir[start] = '\0';
		}
	}
	free(dir);
	return NULL;
}

char *catalogue_root(const char *path)
{
	char *resolved = realpath(path, NULL);
	if (resolved == NULL)
		return NULL;
	/* A trailing '/' so that a path that is the cases folder itself is found too. */
	char *real = xasprintf("%s/", resolved);
	free(resolved);
	char *found = NULL;
	for (char *p = real; (p = strstr(p, "/cases/")) != NULL; p++)
		found = p;
	if (found == NULL) {
		free(real);
		return NULL;
	}
	*found = '\0';
	if (real[0] == '\0')
		strcpy(real, "/");
	return real;
}

bool climbs_out(const char *relative)
{
	if (relative[0] == '/')
		return true;
	for (const char *p = relative; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == relative || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
	return false;
}

bool path_within(const char *path, const char *root)
{
	char *real = realpath(path, NULL);
	if (real == NULL)
		return false;
	size_t len = strlen(root);
	bool within = strcmp(root, "/") == 0 ||
		      (strncmp(real, root, len) == 0 && (real[len] == '/' || real[len] == '\0'));
	free(real);
	return within;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long dir_entries(const char *dir, bool hidden, char ***paths)
{
	*paths = NULL;
	DIR *d = opendir(dir);
	if (d == NULL)
		return -1;
	size_t n = 0, len = strlen(dir);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    (!hidden && e->d_name[0] == '.'))
			continue;
		*paths = xreallocarray(*paths, n + 1, sizeof **paths);
		(*paths)[n++] =
			xasprintf("%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", e->d_name);
	}
	closedir(d);
	if (n > 1) /* qsort's array may not be NULL, even for no entries */
		qsort(*paths, n, sizeof **paths, compare_strings);
	return (long)n;
}

void strings_free(char **strings, long count)
{
	for (long i = 0; i < count; i++)
		free(strings[i]);
	free(strings);
}

bool make_dirs(const char *dir)
{
	char *path = xstrdup(dir);
	bool made = true;
	for (char *p = path + 1; made; p++) {
		bool last = *p == '\0';
		if (*p != '/' && !last)
			continue;
		*p = '\0';
		made = mkdir(path, 0755) == 0 || errno == EEXIST;
		if (last)
			break;
		*p = '/';
	}
	free(path);
	return made;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int remove_tree(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool has_suffix(const char *s, const char *suffix)
{
	size_t len = strlen(s), slen = strlen(suffix);
	return len > slen && strcmp(s + len - slen, suffix) == 0;
}

uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

/* Levenshtein distance by one row; words past 32 characters are never near. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 32 || lb > 32)
		return 99;
	size_t row[33];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *nearest_name(const char *wanted, const char *const *names, size_t count)
{
	const char *nearest = NULL;
	size_t best = 3;
	for (size_t i = 0; i < count; i++) {
		size_t d = edit_distance(names[i], wanted);
		if (d < best) {
			best = d;
			nearest = names[i];
		}
	}
	return nearest;
}

int digits_to_differ(double a, double b)
{
	char x[40], y[40];
	for (int digits = 9; digits < 17; digits++) {
		snprintf(x, sizeof x, "%.*g", digits, a);
		snprintf(y, sizeof y, "%.*g", digits, b);
		if (strcmp(x, y) != 0)
			return digits;
	}
	return a == b ? 9 : 17;
}

char *next_tab_field(char **line)
{
	char *field = *line;
	char *tab = strchr(field, '\t');
	if (tab) {
		*tab = '\0';
		*line = tab + 1;
	} else {
		*line = field + strlen(field);
	}
	return field;
}
