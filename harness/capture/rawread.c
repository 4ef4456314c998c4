/* rawread.c - a strict reader of the capture layer's manifests: a line it does not
 * recognise is refused with its number, never guessed at. */
#include "config.h"

#include "capture/rawread.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "capture/rawlaunch.h"

/* Reads up to three sizes after the word; returns how many, or -1 for anything else. */
static int sizes(char *rest, size_t out[3])
{
	int n = 0;
	for (char *save = NULL, *w = strtok_r(rest, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *end;
		unsigned long long v = strtoull(w, &end, 10);
		if (n == 3 || *end != '\0' || *w == '-')
			return -1;
		out[n++] = (size_t)v;
	}
	return n;
}

static char *type_text(const char *word)
{
	char *t = xstrdup(word);
	for (char *c = t; *c; c++)
		if (*c == '~')
			*c = ' ';
	return t;
}

static bool parse_hex(const char *text, struct raw_arg *a)
{
	if (strcmp(text, "-") == 0)
		return true;
	size_t len = strlen(text);
	if (len % 2)
		return false;
	a->value = xmalloc(len / 2 + 1);
	a->value_size = len / 2;
	for (size_t i = 0; i < len / 2; i++) {
		unsigned byte;
		if (sscanf(text + 2 * i, "%2x", &byte) != 1)
			return false;
		a->value[i] = (unsigned char)byte;
	}
	return true;
}

/* One "arg K KIND ..." line, its words in w[0..n). */
static bool parse_arg(char **w, int n, struct raw_launch *l)
{
	if (n < 5 || strtoul(w[1], NULL, 10) != l->nargs)
		return false;
	struct raw_arg a = { .name = xstrdup(w[3]), .type = type_text(w[4]) };
	bool ok = false;
	if (strcmp(w[2], "buffer") == 0 && n == 11) {
		a.kind = RAW_BUFFER;
		a.constant = strcmp(w[5], "constant") == 0;
		a.mem = strtoull(w[6], NULL, 16);
		a.size = strtoull(w[7], NULL, 10);
		a.parent = strtoull(w[8], NULL, 16);
		a.origin = strtoull(w[9], NULL, 10);
		a.writable = strcmp(w[10], "1") == 0;
		ok = a.mem != 0;
	} else if (strcmp(w[2], "null") == 0 && n == 6) {
		a.kind = RAW_NULL;
		a.constant = strcmp(w[5], "constant") == 0;
		ok = true;
	} else if (strcmp(w[2], "local") == 0 && n == 6) {
		a.kind = RAW_LOCAL;
		a.size = strtoull(w[5], NULL, 10);
		ok = true;
	} else if (strcmp(w[2], "value") == 0 && n == 6) {
		a.kind = RAW_VALUE;
		ok = parse_hex(w[5], &a);
	}
	l->args = xreallocarray(l->args, l->nargs + 1, sizeof *l->args);
	l->args[l->nargs++] = a;
	return ok;
}

int raw_launch_read(const char *dir, struct raw_launch *out, char **why)
{
	*out = (struct raw_launch){ .dir = xstrdup(dir) };
	char *path = xasprintf("%s/launch", dir);
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL) {
		free(path);
		return 1;
	}
	int status = 0, lineno = 0;
	bool saw[5] = { false }; /* magic, program, kernel, global, offset */
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && status == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (lineno == 1) {
			saw[0] = strcmp(line, RAWLAUNCH_MAGIC) == 0;
			status = saw[0] ? 0 : -1;
			continue;
		}
		char *words[12];
		int n = 0;
		char *copy = xstrdup(line);
		for (char *s2 = NULL, *w = strtok_r(copy, " ", &s2); w && n < 12;
		     w = strtok_r(NULL, " ", &s2))
			words[n++] = w;
		bool ok = n >= 2;
		char *rest = strchr(line, ' ');
		if (ok && strcmp(words[0], "program") == 0) {
			out->program = (unsigned)strtoul(words[1], NULL, 10);
			saw[1] = true;
		} else if (ok && strcmp(words[0], "kernel") == 0) {
			free(out->kernel);
			out->kernel = xstrdup(words[1]);
			saw[2] = true;
		} else if (ok && strcmp(words[0], "global") == 0) {
			int d = sizes(rest + 1, out->global);
			out->dims = d > 0 ? (unsigned)d : 0;
			ok = d > 0;
			saw[3] = ok;
		} else if (ok && strcmp(words[0], "local") == 0) {
			out->local_given = strcmp(words[1], "none") != 0;
			ok = !out->local_given ||
			     sizes(rest + 1, out->local) == (int)out->dims;
		} else if (ok && strcmp(words[0], "offset") == 0) {
			ok = sizes(rest + 1, out->offset) == (int)out->dims;
			saw[4] = ok;
		} else if (ok && strcmp(words[0], "arg") == 0) {
			ok = parse_arg(words, n, out);
		} else {
			ok = false;
		}
		free(copy);
		if (!ok)
			status = -1;
	}
	for (int i = 0; i < 5 && status == 0; i++)
		if (!saw[i])
			status = -1, lineno = 0;
	if (status < 0)
		*why = lineno ? xasprintf("%s:%d: a line the capture layer does not write", path,
					  lineno)
			      : xasprintf("%s: the manifest lacks its program, kernel, global "
					  "size or offset",
					  path);
	free(text);
	free(path);
	return status;
}

void raw_launch_free(struct raw_launch *launch)
{
	for (size_t i = 0; i < launch->nargs; i++) {
		free(launch->args[i].name);
		free(launch->args[i].type);
		free(launch->args[i].value);
	}
	free(launch->args);
	free(launch->kernel);
	free(launch->dir);
	*launch = (struct raw_launch){ 0 };
}

char *raw_arg_path(const struct raw_launch *launch, size_t index, bool after)
{
	return xasprintf("%s/arg%zu.%s", launch->dir, index, after ? "after" : "before");
}

unsigned char *raw_arg_bytes(const struct raw_launch *launch, size_t index, bool after,
			     char **why)
{
	char *path = raw_arg_path(launch, index, after);
	size_t len = 0, want = RAWLAUNCH_BYTES_AT + launch->args[index].size;
	unsigned char *bytes = (unsigned char *)read_file(path, &len);
	if (bytes == NULL || len != want) {
		*why = bytes ? xasprintf("%s holds %zu bytes, but the buffer has %zu (and %d "
					 "before them)",
					 path, len, launch->args[index].size, RAWLAUNCH_BYTES_AT)
			     : xasprintf("cannot read %s", path);
		free(bytes);
		bytes = NULL;
	} else {
		memmove(bytes, bytes + RAWLAUNCH_BYTES_AT, launch->args[index].size);
	}
	free(path);
	return bytes;
}
