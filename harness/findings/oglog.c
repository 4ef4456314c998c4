/* oglog.c - parses the diagnostics log Oclgrind writes into messages. */
#include "config.h"

#include "findings/oglog.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const spaces[] = { "global", "local", "private", "constant" };

/* The address-space word that follows `prefix` in `text`, if it is one. */
static const char *space_after(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);
	if (p == NULL)
		return NULL;
	p += strlen(prefix);
	for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++) {
		size_t len = strlen(spaces[i]);
		if (strncmp(p, spaces[i], len) == 0 && p[len] == ' ')
			return spaces[i];
	}
	return NULL;
}

/* The text after `prefix` where text starts with it, else NULL. */
static const char *after(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);
	return strncmp(text, prefix, len) == 0 ? text + len : NULL;
}

static bool starts(const char *text, const char *prefix)
{
	return after(text, prefix) != NULL;
}

/* Sets kind, what and space from the headline. */
static void classify(struct oglog_message *m, const char *headline)
{
	static const struct {
		const char *prefix;
		enum oglog_kind kind;
		const char *what;
		const char *space_prefix; /* the space follows this, when the headline names one */
	} shapes[] = {
		{ "Read-write data race", OGLOG_RACE, "read-write", " at " },
		{ "Write-write data race", OGLOG_RACE, "write-write", " at " },
		{ "Work-group divergence detected (barrier)", OGLOG_DIVERGENCE, "barrier", NULL },
		{ "Work-group divergence detected (async copy)", OGLOG_DIVERGENCE, "async copy",
		  NULL },
		{ "Invalid read of size", OGLOG_INVALID_ACCESS, "read", " at " },
		{ "Invalid write of size", OGLOG_INVALID_ACCESS, "write", " at " },
		{ "Invalid write to read-only buffer", OGLOG_INVALID_ACCESS, "write to read-only",
		  NULL },
		{ "Invalid read from write-only buffer", OGLOG_INVALID_ACCESS,
		  "read from write-only", NULL },
		{ "Invalid write to mapped buffer", OGLOG_INVALID_ACCESS, "write to mapped", NULL },
		{ "Invalid read from buffer mapped", OGLOG_INVALID_ACCESS, "read from mapped",
		  NULL },
		{ "Invalid read from", OGLOG_INVALID_ACCESS, "read", NULL },
		{ "Invalid write to", OGLOG_INVALID_ACCESS, "write", NULL },
		{ "Invalid memory load - source pointer is not aligned", OGLOG_INVALID_ACCESS,
		  "unaligned read", NULL },
		{ "Invalid memory store - source pointer is not aligned", OGLOG_INVALID_ACCESS,
		  "unaligned write", NULL },
		{ "Unaligned address", OGLOG_INVALID_ACCESS, "unaligned access", NULL },
		{ "Work-item finished without waiting for events", OGLOG_ASYNC_COPY,
		  "not waited for", NULL },
		{ "Invalid wait event", OGLOG_ASYNC_COPY, "invalid wait event", NULL },
		{ "Index (", OGLOG_ARRAY_INDEX, "index", NULL },
		{ "Uninitialized value written to", OGLOG_UNINITIALIZED, "value written", " to " },
		{ "Uninitialized address used to read from", OGLOG_UNINITIALIZED,
		  "address used to read", " from " },
		{ "Uninitialized address used to write to", OGLOG_UNINITIALIZED,
		  "address used to write", " to " },
		{ "Controlflow depends on uninitialized value", OGLOG_UNINITIALIZED, "control flow",
		  NULL },
		{ "Instruction depends on an uninitialized index value", OGLOG_UNINITIALIZED,
		  "index value", NULL },
		{ "Oclgrind - OpenCL runtime error detected", OGLOG_API_ERROR, NULL, NULL },
		{ "OCLGRIND FATAL ERROR", OGLOG_FATAL, NULL, NULL },
	};
	m->kind = OGLOG_OTHER;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		if (!starts(headline, shapes[i].prefix))
			continue;
		m->kind = shapes[i].kind;
		m->what = shapes[i].what ? xstrdup(shapes[i].what) : NULL;
		const char *space = shapes[i].space_prefix
					    ? space_after(headline, shapes[i].space_prefix)
					    : NULL;
		/* Read-only and write-only buffers live in global memory; an unaligned
		 * access's space comes from its instruction (finish). */
		if (space == NULL && m->kind == OGLOG_INVALID_ACCESS && !strstr(m->what, "aligned"))
			space = "global";
		m->space = space ? xstrdup(space) : NULL;
		return;
	}
	long count;
	if (sscanf(headline, "Oclgrind: %ld errors generated", &count) == 1) {
		m->kind = OGLOG_SUPPRESSED;
		m->suppressed = count;
	}
}

/* Reads a decimal number, "-" and digits, at p into *v; returns the character after it,
 * or NULL where no digit stands there or it does not fit between min and max. By hand, not
 * with sscanf or strtol: a race message holds twenty numbers, and a racy kernel's log
 * thousands of messages. */
static const char *decimal(const char *p, long min, long max, long *v)
{
	bool negative = *p == '-';
	p += negative;
	if (*p < '0' || *p > '9')
		return NULL;
	long n = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		int digit = *p - '0';
		if (negative ? n < (min + digit) / 10 : n > (max - digit) / 10)
			return NULL;
		n = n * 10 + (negative ? -digit : digit);
	}
	*v = n;
	return p;
}

/* Parses "(x,y,z)" at p into v; returns the character after it, or NULL. */
static const char *triple(const char *p, long v[3])
{
	if (p == NULL || *p != '(')
		return NULL;
	for (int i = 0; i < 3; i++) {
		p = decimal(p + 1, LONG_MIN, LONG_MAX, &v[i]);
		if (p == NULL || *p != (i < 2 ? ',' : ')'))
			return NULL;
	}
	return p + 1;
}

/* "Global(1,0,0) Local(1,0,0) Group(0,0,0)", or "Group(0,0,0)" for a work-group. */
static bool parse_entity(const char *text, struct entity *e)
{
	*e = (struct entity){ 0 };
	const char *g = strstr(text, "Global(");
	const char *l = strstr(text, "Local(");
	const char *w = strstr(text, "Group(");
	if (g && l && triple(g + 6, e->global) && triple(l + 5, e->local))
		e->is_item = true;
	bool group = w && triple(w + 5, e->group);
	return e->is_item || group;
}

/* text without its leading and trailing blanks, cut in place. */
static char *trim(char *text)
{
	while (*text == ' ' || *text == '\t')
		text++;
	size_t len = strlen(text);
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r'))
		len--;
	text[len] = '\0';
	return text;
}

static char *trimmed_copy(char *text)
{
	return xstrdup(trim(text));
}

/* Where text starts with prefix: *field becomes the rest of the line, trimmed. */
static bool take_field(char **field, char *text, const char *prefix)
{
	if (!starts(text, prefix))
		return false;
	free(*field);
	*field = trimmed_copy(text + strlen(prefix));
	return true;
}

/* What a message is being read into, line by line. */
struct reading {
	struct oglog_message m;
	char *last_code;  /* the latest instruction line, for the location that follows */
	bool want_source; /* the next code line quotes the source of the latest location */
	bool has_group;	  /* a "Work-group:" line, used when no work-item is named */
	long group[3];
};

static void add_location(struct reading *rd, int line, int col, const char *file)
{
	if (rd->m.nlocations == 2)
		return;
	struct oglog_location *loc = &rd->m.locations[rd->m.nlocations++];
	*loc = (struct oglog_location){ .line = line,
					.col = col,
					.file = file ? xstrdup(file) : NULL,
					.instruction = rd->last_code };
	rd->last_code = NULL;
	rd->want_source = line > 0;
}

/* "At line L (column C) of FILE:" or "At line L of FILE": adds the location and returns
 * true; any other line returns false. */
static bool read_location(struct reading *rd, const char *text)
{
	const char *p = after(text, "At line ");
	if (p == NULL)
		return false;
	long lineno, col = 0;
	p = decimal(p, INT_MIN, INT_MAX, &lineno);
	if (p == NULL)
		return false;
	const char *column = after(p, " (column ");
	bool has_col = column != NULL;
	if (has_col) {
		p = decimal(column, INT_MIN, INT_MAX, &col);
		if (p == NULL || *p != ')')
			return false;
		p++;
	}
	p = after(p, " of ");
	if (p == NULL)
		return false;
	size_t len = strcspn(p, ":\n");
	if (len == 0 || (has_col && p[len] != ':'))
		return false;
	char file[512];
	len = len < sizeof file ? len : sizeof file - 1;
	memcpy(file, p, len);
	file[len] = '\0';
	add_location(rd, (int)lineno, (int)col, file);
	return true;
}

/* One indented line of a message, its first tab removed; cut where it is read. */
static void read_body_line(struct reading *rd, char *line)
{
	struct oglog_message *m = &rd->m;
	if (starts(line, "  ")) {
		if (rd->want_source && m->nlocations > 0) {
			free(m->locations[m->nlocations - 1].source);
			m->locations[m->nlocations - 1].source = xstrdup(line + 2);
			rd->want_source = false;
		} else {
			free(rd->last_code);
			rd->last_code = trimmed_copy(line);
		}
		return;
	}
	rd->want_source = false;
	char *text = trim(line);
	struct entity e;
	const char *fence_flags;
	if (*text == '\0') {
		/* a blank line inside the message */
	} else if (take_field(&m->kernel, text, "Kernel:")) {
		/* the kernel's name, now kept */
	} else if (read_location(rd, text)) {
		/* a source location, now added */
	} else if (strcmp(text, "Debugging information not available.") == 0 ||
		   strcmp(text, "(location unknown)") == 0) {
		add_location(rd, 0, 0, NULL);
	} else if (starts(text, "Work-group:")) {
		rd->has_group = triple(strchr(text, '('), rd->group) != NULL;
	} else if ((starts(text, "Entity:") || starts(text, "First entity:") ||
		    starts(text, "Second entity:") || starts(text, "Work-item:")) &&
		   parse_entity(text, &e)) {
		if (m->nentities < 2)
			m->entities[m->nentities++] = e;
	} else if (take_field(&m->function, text, "Function:") ||
		   take_field(&m->error, text, "Error:")) {
		/* the function or the API error, now kept */
	} else if ((fence_flags = after(text, "fence=0x")) != NULL) {
		/* The work-item's flags come first, the earlier items' after. */
		size_t side = m->fences[0] < 0 ? 0 : 1;
		m->fences[side] = strtol(fence_flags, NULL, 16);
	} else if (m->info == NULL && !starts(text, "Previous work-items executed") &&
		   !starts(text, "fence=") && !starts(text, "events[") && !starts(text, "dest=") &&
		   !starts(text, "elem_size=")) {
		m->info = xstrdup(text);
	}
}

static void finish(struct reading *rd)
{
	struct oglog_message *m = &rd->m;
	if (m->nentities == 0 && rd->has_group) {
		m->entities[0] = (struct entity){ .is_item = false };
		memcpy(m->entities[0].group, rd->group, sizeof rd->group);
		m->nentities = 1;
	}
	/* The index and alignment messages name no space: the pointer shows it. */
	if ((m->kind == OGLOG_ARRAY_INDEX || m->kind == OGLOG_INVALID_ACCESS) && m->space == NULL &&
	    m->nlocations > 0 && m->locations[0].instruction) {
		const char *space = oglog_instruction_space(m->locations[0].instruction);
		m->space = space ? xstrdup(space) : NULL;
	}
}

void oglog_message_release(struct oglog_message *m)
{
	free(m->headline);
	free(m->kernel);
	free(m->what);
	free(m->space);
	free(m->info);
	free(m->function);
	free(m->error);
	for (size_t i = 0; i < m->nlocations; i++) {
		free(m->locations[i].file);
		free(m->locations[i].source);
		free(m->locations[i].instruction);
	}
}

static void release(struct reading *rd)
{
	oglog_message_release(&rd->m);
	free(rd->last_code);
	*rd = (struct reading){ 0 };
}

size_t oglog_parse(const char *text, void (*fn)(void *ctx, const struct oglog_message *m),
		   void *ctx)
{
	size_t count = 0;
	struct reading rd = { 0 };
	bool open = false;
	/* Each line is copied into one buffer, not a fresh string: a racy kernel's log has
	 * tens of thousands of lines. */
	struct strbuf buffer = { 0 };
	const char *p = text;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		buffer.len = 0;
		strbuf_append(&buffer, p, len);
		char *line = buffer.data;
		if (len > 0 && line[len - 1] == '\r')
			line[len - 1] = '\0';
		p = nl ? nl + 1 : NULL;

		if (line[0] == '\0') {
			/* An empty line (no indentation at all) ends a message. */
			if (open) {
				finish(&rd);
				fn(ctx, &rd.m);
				count++;
				release(&rd);
				open = false;
			}
		} else if (!open) {
			open = true;
			rd.m.fences[0] = rd.m.fences[1] = -1;
			rd.m.headline = trimmed_copy(line);
			classify(&rd.m, rd.m.headline);
		} else if (line[0] == '\t') {
			read_body_line(&rd, line + 1);
		} else if (rd.m.info == NULL) {
			/* A fatal error's reason stands unindented under its headline. */
			rd.m.info = trimmed_copy(line);
		}
	}
	strbuf_free(&buffer);
	if (open) {
		finish(&rd);
		fn(ctx, &rd.m);
		count++;
		release(&rd);
	}
	return count;
}

char oglog_access_type(const char *instruction)
{
	if (instruction == NULL)
		return 0;
	const char *p = instruction;
	if (*p == '%') { /* "%5 = load ...": skip the result's name */
		const char *eq = strstr(p, " = ");
		p = eq ? eq + 3 : p;
	}
	if (starts(p, "store"))
		return 'w';
	if (starts(p, "load"))
		return 'r';
	if (starts(p, "atomicrmw") || starts(p, "cmpxchg") ||
	    (starts(p, "call") && strstr(p, "atomic")))
		return 'a';
	return 0;
}

const char *oglog_instruction_space(const char *instruction)
{
	char access = oglog_access_type(instruction);
	if (access != 'r' && access != 'w')
		return NULL;
	/* The pointer operand's type is the last one before ", align": "float addrspace(3)*"
	 * for local memory, a bare "float*" for private. */
	const char *end = strstr(instruction, ", align");
	size_t len = end ? (size_t)(end - instruction) : strlen(instruction);
	const char *star = NULL;
	for (size_t i = 0; i < len; i++)
		if (instruction[i] == '*')
			star = instruction + i;
	if (star == NULL || star == instruction)
		return NULL;
	long n = 0;
	if (star[-1] == ')') {
		const char *open = star - 1;
		while (open > instruction && *open != '(')
			open--;
		if (open - instruction < 9 || strncmp(open - 9, "addrspace", 9) != 0)
			return NULL;
		n = strtol(open + 1, NULL, 10);
	}
	static const char *const by_number[] = { "private", "global", "constant", "local" };
	return n >= 0 && n < 4 ? by_number[n] : NULL;
}
