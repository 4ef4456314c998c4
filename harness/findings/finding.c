/* finding.c - Oclgrind's messages folded into findings, and the words reports use. */
#include "config.h"

#include "findings/finding.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static enum finding_kind kind_of(enum oglog_kind kind)
{
	switch (kind) {
	case OGLOG_RACE:
		return FINDING_RACE;
	case OGLOG_DIVERGENCE:
		return FINDING_DIVERGENCE;
	case OGLOG_INVALID_ACCESS:
	case OGLOG_ARRAY_INDEX:
		return FINDING_OUT_OF_BOUNDS;
	case OGLOG_UNINITIALIZED:
		return FINDING_UNINITIALIZED;
	case OGLOG_ASYNC_COPY:
		return FINDING_ASYNC_COPY;
	case OGLOG_API_ERROR:
		return FINDING_API_ERROR;
	case OGLOG_FATAL:
		return FINDING_SIMULATOR_ERROR;
	case OGLOG_SUPPRESSED:
		return FINDING_TRUNCATED;
	case OGLOG_OTHER:
		break;
	}
	return FINDING_OTHER;
}

const char *finding_kind_name(enum finding_kind kind)
{
	static const char *const names[] = {
		[FINDING_RACE] = "race",
		[FINDING_DIVERGENCE] = "barrier-divergence",
		[FINDING_OUT_OF_BOUNDS] = "out-of-bounds",
		[FINDING_UNINITIALIZED] = "uninitialized",
		[FINDING_ASYNC_COPY] = "async-copy",
		[FINDING_API_ERROR] = "api-error",
		[FINDING_SIMULATOR_ERROR] = "simulator-error",
		[FINDING_TRUNCATED] = "truncated",
		[FINDING_OTHER] = "other",
	};
	return names[kind];
}

/* Kinds without source lines are told apart by their text instead. */
static bool keyed_by_info(enum finding_kind kind)
{
	return kind == FINDING_API_ERROR || kind == FINDING_OTHER ||
	       kind == FINDING_SIMULATOR_ERROR;
}

bool finding_same(const struct finding *a, const struct finding *b)
{
	return a->kind == b->kind && same_text(a->what, b->what) && same_text(a->space, b->space) &&
	       same_text(a->file, b->file) && a->at.line == b->at.line &&
	       a->other.line == b->other.line &&
	       (!keyed_by_info(a->kind) || same_text(a->info, b->info));
}

bool finding_same_place(const struct finding *a, const struct finding *b)
{
	return a->kind == b->kind && same_text(a->what, b->what) && same_text(a->space, b->space) &&
	       same_text(a->file, b->file) &&
	       (a->at.line == b->at.line || a->at.line == b->other.line);
}

/* Whether f and g are in one kernel of one file: the lines of one are the other's. */
static bool same_source(const struct finding *f, const struct finding *g)
{
	return same_text(f->file, g->file) && same_text(f->kernel, g->kernel);
}

/* The mistake an uninitialised value used at f's line comes straight from: a race
 * reading there, an out-of-bounds read there, or items of the work-group that skipped a
 * barrier (and so the writes before it that others read). */
static const struct finding *direct_cause(const struct finding_list *list, const struct finding *f)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct finding *g = &list->items[i];
		if (g == f || g->severity != DIAG_ERROR || g->suppressed || !same_source(f, g))
			continue;
		bool reads_here = (g->at.line == f->at.line && g->at.access == 'r') ||
				  (g->other.line == f->at.line && g->other.access == 'r');
		if ((g->kind == FINDING_RACE && reads_here) ||
		    (g->kind == FINDING_OUT_OF_BOUNDS && g->at.line == f->at.line &&
		     g->at.access != 'w') ||
		    g->kind == FINDING_DIVERGENCE)
			return g;
	}
	return NULL;
}

const struct finding *finding_cause(const struct finding_list *list, const struct finding *f)
{
	if (f->kind != FINDING_UNINITIALIZED || f->at.line <= 0)
		return NULL;
	const struct finding *cause = direct_cause(list, f);
	if (cause)
		return cause;
	/* The simulator follows an undefined value as it is copied: where one came from such
	 * a mistake, the later uses of undefined values in that kernel carry it on. */
	for (size_t i = 0; i < list->count; i++) {
		const struct finding *u = &list->items[i];
		if (u != f && u->kind == FINDING_UNINITIALIZED && same_source(f, u) &&
		    (cause = direct_cause(list, u)) != NULL)
			return cause;
	}
	return NULL;
}

static bool site_before(const struct finding_site *a, const struct finding_site *b)
{
	return a->line < b->line || (a->line == b->line && a->col < b->col);
}

/* Puts the write of a read-write race first, and otherwise the earlier line, so that
 * the same bug always folds into the same finding whichever item Oclgrind saw first. */
static void order_sites(struct finding *f)
{
	if (f->other.line == 0 && f->other.col == 0)
		return;
	bool swap;
	if (f->kind == FINDING_RACE && strcmp(f->what, "read-write") == 0 &&
	    (f->at.access == 'w') != (f->other.access == 'w'))
		swap = f->other.access == 'w';
	else
		swap = site_before(&f->other, &f->at);
	if (!swap)
		return;
	struct finding_site s = f->at;
	f->at = f->other;
	f->other = s;
	if (f->nexample == 2) {
		struct entity e = f->example[0];
		f->example[0] = f->example[1];
		f->example[1] = e;
	}
}

/* An API error's code and explanation, an array index's or an unparsed message's
 * headline, how many errors came before the simulator stopped: the text that describes a
 * finding without a position. NULL where the message's own explanation line does. */
static char *info_of(const struct oglog_message *m)
{
	switch (m->kind) {
	case OGLOG_API_ERROR:
		return xasprintf("%s in %s%s%s", m->error ? m->error : "an error",
				 m->function ? m->function : "an OpenCL call", m->info ? ": " : "",
				 m->info ? m->info : "");
	case OGLOG_ARRAY_INDEX:
	case OGLOG_OTHER:
		return xstrdup(m->headline);
	case OGLOG_SUPPRESSED:
		return xasprintf("%ld", m->suppressed);
	default:
		return NULL;
	}
}

/* Where in `path` kernel `kernel` calls async_work_group_copy or
 * async_work_group_strided_copy, the call nearest line `near` (before it where there is
 * one): Oclgrind places an access of a work-group's copy nowhere, and a race with it is
 * fixed at the copy. 0 where the source shows none. */
static int async_copy_line(const char *path, const char *kernel, int near, int *col)
{
	size_t len;
	char *source = path ? read_file(path, &len) : NULL;
	if (source == NULL)
		return 0;
	/* The kernel's body: from its name's definition to the next kernel's. */
	const char *body = source;
	for (const char *p = source; kernel && (p = strstr(p, kernel)) != NULL; p++) {
		const char *after = p + strlen(kernel);
		while (*after == ' ' || *after == '\t' || *after == '\n')
			after++;
		if (*after == '(' &&
		    (p == source || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			body = p;
			break;
		}
	}
	const char *end = strstr(body + 1, "kernel ");
	int best = 0, best_col = 0, line = 1;
	for (const char *p = source; *p && (end == NULL || p < end); p++) {
		if (*p == '\n') {
			line++;
			continue;
		}
		if (p < body || strncmp(p, "async_work_group_", 17) != 0)
			continue;
		bool before = line <= near, best_before = best > 0 && best <= near;
		if (best == 0 || (before && !best_before) ||
		    (before == best_before && abs(line - near) < abs(best - near))) {
			best = line;
			const char *start = p;
			while (start > source && start[-1] != '\n')
				start--;
			best_col = (int)(p - start) + 1;
		}
	}
	free(source);
	*col = best_col;
	return best;
}

char *finding_fence_pair(long some, long others)
{
	struct strbuf sb = { 0 };
	for (int side = 0; side < 2; side++) {
		long flags = side ? others : some;
		strbuf_puts(&sb, side ? ", " : "");
		strbuf_puts(&sb, flags & 1 ? "CLK_LOCAL_MEM_FENCE" : "");
		strbuf_puts(&sb, (flags & 1) && (flags & 2) ? " | " : "");
		strbuf_puts(&sb, flags & 2 ? "CLK_GLOBAL_MEM_FENCE" : "");
		strbuf_puts(&sb, flags & 3 ? "" : "no fence");
		strbuf_puts(&sb, side ? " by the others" : " by some work-items");
	}
	return strbuf_take(&sb);
}

/* For a barrier whose work-items passed it different fence flags, which Oclgrind reports
 * as divergence between two barriers at one place: which flags each side passed. NULL
 * for any other divergence. Caller frees. */
static char *fence_flags(const struct oglog_message *m)
{
	if (m->kind != OGLOG_DIVERGENCE || m->nlocations != 2 || m->fences[0] < 0 ||
	    m->fences[1] < 0 || m->fences[0] == m->fences[1] ||
	    m->locations[0].line != m->locations[1].line ||
	    m->locations[0].col != m->locations[1].col)
		return NULL;
	return finding_fence_pair(m->fences[0], m->fences[1]);
}

/* Copies the strings a finding borrows from the event it was made from, for a list to
 * keep it. */
static void keep_strings(struct finding *f)
{
	f->what = dup_or_null(f->what);
	f->space = dup_or_null(f->space);
	f->kernel = dup_or_null(f->kernel);
	f->file = dup_or_null(f->file);
	f->info = dup_or_null(f->info);
}

/* Whether an invalid access of global memory fell before its buffer's start or through
 * a null pointer. The simulator's global address is a buffer's number in its top 16 bits
 * (0 for none) and the offset into it below, so an index below zero wraps the offset to
 * the top of its range. */
static bool address_outside_buffers(const struct oglog_message *m)
{
	const char *at = m->kind == OGLOG_INVALID_ACCESS && m->headline
				 ? strstr(m->headline, "global memory address 0x")
				 : NULL;
	if (at == NULL)
		return false;
	unsigned long long address = strtoull(at + 24, NULL, 16);
	return (address >> 47 & 1) != 0 || address >> 48 == 0;
}

struct finding *finding_list_note(struct finding_list *list, const struct finding_event *e)
{
	/* Made of the event's own strings, and copied only when it is kept: a racy kernel
	 * shows a few findings thousands of times. */
	struct finding f = {
		.kind = e->kind,
		.severity = e->severity,
		.what = (char *)e->what,
		.space = (char *)e->space,
		.kernel = (char *)e->kernel,
		.file = (char *)e->file,
		.at = e->at,
		.other = e->other,
		.count = 1,
		.nexample = e->nexample < 2 ? e->nexample : 2,
		.info = (char *)e->info,
		.outside_buffers = e->outside_buffers,
	};
	memcpy(f.example, e->example, sizeof f.example);
	order_sites(&f);
	for (size_t i = 0; i < list->count; i++) {
		if (finding_same(&list->items[i], &f)) {
			list->items[i].count++;
			list->items[i].outside_buffers |= f.outside_buffers;
			return &list->items[i];
		}
	}
	keep_strings(&f);
	list->items = xreallocarray(list->items, list->count + 1, sizeof *list->items);
	list->items[list->count++] = f;
	return &list->items[list->count - 1];
}

void finding_list_add(struct finding_list *list, const struct oglog_message *m,
		      finding_file_fn file_of, void *ctx)
{
	struct finding_event e = {
		.kind = kind_of(m->kind),
		/* A simulator that stopped reporting leaves the run unchecked from there on:
		 * an error, since "0 errors" after it would be a clean result from missing
		 * evidence. */
		.severity = m->kind == OGLOG_OTHER ? DIAG_WARNING : DIAG_ERROR,
		.what = m->what,
		.space = m->space,
		.kernel = m->kernel,
		.nexample = m->nentities,
		.info = m->info,
		.outside_buffers = address_outside_buffers(m),
	};
	memcpy(e.example, m->entities, sizeof e.example);
	struct finding_site *sites[2] = { &e.at, &e.other };
	for (size_t i = 0; i < m->nlocations; i++) {
		const struct oglog_location *loc = &m->locations[i];
		*sites[i] = (struct finding_site){ .line = loc->line,
						   .col = loc->col,
						   .access = oglog_access_type(loc->instruction) };
		if (e.file == NULL && loc->file) {
			const char *own = strcmp(loc->file, "input.cl") == 0 && file_of
						  ? file_of(ctx, m->kernel)
						  : NULL;
			e.file = own ? own : loc->file;
		}
	}
	char *made = info_of(m);
	if (made)
		e.info = made;
	char *fences = fence_flags(m);
	if (fences) {
		e.what = "fence flags";
		e.info = fences;
		e.other = (struct finding_site){ 0 };
	}
	/* A race with a work-group's async copy names the group, at no place: the copy's
	 * own line is where the fix goes. */
	bool group_side = m->nentities == 2 && (!m->entities[0].is_item || !m->entities[1].is_item);
	if (e.kind == FINDING_RACE && group_side && e.file && (e.at.line == 0) != (e.other.line == 0)) {
		struct finding_site *unknown = e.at.line == 0 ? &e.at : &e.other;
		int near = e.at.line ? e.at.line : e.other.line;
		unknown->line = async_copy_line(e.file, e.kernel, near, &unknown->col);
		unknown->access = unknown->line ? 'c' : 0;
	}
	finding_list_note(list, &e);
	free(made);
	free(fences);
}

bool finding_suppressed_by(const struct finding *f, const struct suppression *s)
{
	if (strcmp(finding_kind_name(f->kind), s->kind) != 0)
		return false;
	if (s->kernel && !same_text(f->kernel, s->kernel))
		return false;
	if (s->space && !same_text(f->space, s->space))
		return false;
	if (s->lines[1])
		return (f->at.line == s->lines[0] && f->other.line == s->lines[1]) ||
		       (f->at.line == s->lines[1] && f->other.line == s->lines[0]);
	return s->lines[0] == 0 || f->at.line == s->lines[0] || f->other.line == s->lines[0];
}

void finding_list_settle(struct finding_list *settled, const struct finding *f)
{
	if (f->severity != DIAG_ERROR || f->suppressed || f->kind == FINDING_TRUNCATED)
		return;
	struct finding_list one = { .items = (struct finding *)f, .count = 1 };
	finding_list_merge(settled, &one);
}

void finding_list_suppress(struct finding_list *list, const struct suppression_list *const *lists,
			   size_t nlists)
{
	for (size_t i = 0; i < list->count; i++) {
		struct finding *f = &list->items[i];
		unsigned index = 0;
		for (size_t l = 0; l < nlists && f->suppressed == 0; l++) {
			for (size_t k = 0; lists[l] && k < lists[l]->count; k++) {
				index++;
				if (f->suppressed == 0 &&
				    finding_suppressed_by(f, &lists[l]->items[k]))
					f->suppressed = index;
			}
		}
	}
}

void finding_copy(struct finding *dst, const struct finding *src)
{
	*dst = *src;
	dst->what = dup_or_null(src->what);
	dst->space = dup_or_null(src->space);
	dst->kernel = dup_or_null(src->kernel);
	dst->file = dup_or_null(src->file);
	dst->info = dup_or_null(src->info);
	dst->input_set = dup_or_null(src->input_set);
	dst->rests_on = dup_or_null(src->rests_on);
}

/* Whether `name` is one of the comma-separated names of `list`. */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == '\0' || p[len] == ','))
			return true;
	return false;
}

bool finding_shown_by(const struct finding *f, const char *set)
{
	return f->input_set && listed(f->input_set, set);
}

/* Adds src's input set to dst's, once. */
static void join_input_sets(struct finding *dst, const char *src)
{
	if (src == NULL || (dst->input_set && listed(dst->input_set, src)))
		return;
	char *joined = dst->input_set ? xasprintf("%s, %s", dst->input_set, src) : xstrdup(src);
	free(dst->input_set);
	dst->input_set = joined;
}

void finding_list_merge(struct finding_list *dst, const struct finding_list *src)
{
	for (size_t i = 0; i < src->count; i++) {
		const struct finding *f = &src->items[i];
		bool folded = false;
		for (size_t j = 0; j < dst->count && !folded; j++) {
			if (finding_same(&dst->items[j], f)) {
				dst->items[j].count += f->count;
				if (f->severity < dst->items[j].severity)
					dst->items[j].severity = f->severity;
				/* Shown once without a guess, it is the kernel's. */
				if (f->rests_on == NULL) {
					free(dst->items[j].rests_on);
					dst->items[j].rests_on = NULL;
				}
				dst->items[j].outside_buffers |= f->outside_buffers;
				join_input_sets(&dst->items[j], f->input_set);
				folded = true;
			}
		}
		if (folded)
			continue;
		dst->items = xreallocarray(dst->items, dst->count + 1, sizeof *dst->items);
		finding_copy(&dst->items[dst->count++], f);
	}
}

static int compare_findings(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c != 0)
		return c;
	if (a->at.line != b->at.line)
		return a->at.line < b->at.line ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->other.line != b->other.line)
		return a->other.line < b->other.line ? -1 : 1;
	c = strcmp(a->what ? a->what : "", b->what ? b->what : "");
	if (c != 0)
		return c;
	c = strcmp(a->space ? a->space : "", b->space ? b->space : "");
	return c != 0 ? c : strcmp(a->info ? a->info : "", b->info ? b->info : "");
}

void finding_list_sort(struct finding_list *list)
{
	if (list->count > 1)
		qsort(list->items, list->count, sizeof *list->items, compare_findings);
}

bool finding_list_has_errors(const struct finding_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].severity == DIAG_ERROR && !list->items[i].suppressed)
			return true;
	return false;
}

void finding_free(struct finding *f)
{
	free(f->what);
	free(f->space);
	free(f->kernel);
	free(f->file);
	free(f->info);
	free(f->input_set);
	free(f->rests_on);
	*f = (struct finding){ 0 };
}

void finding_list_free(struct finding_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		finding_free(&list->items[i]);
	free(list->items);
	*list = (struct finding_list){ 0 };
}

const char *finding_access_word(char access)
{
	switch (access) {
	case 'w':
		return "write";
	case 'r':
		return "read";
	case 'a':
		return "atomic access";
	case 'c':
		return "async copy";
	}
	return "access";
}

void finding_entity(struct strbuf *out, const struct entity *e)
{
	if (e->is_item)
		strbuf_printf(out, "global (%ld,%ld,%ld) local (%ld,%ld,%ld) group (%ld,%ld,%ld)",
			      e->global[0], e->global[1], e->global[2], e->local[0], e->local[1],
			      e->local[2], e->group[0], e->group[1], e->group[2]);
	else
		strbuf_printf(out, "work-group (%ld,%ld,%ld)", e->group[0], e->group[1],
			      e->group[2]);
}

/* Oclgrind's sentence, as the second half of one of ours: its capital lowered. */
static void clause(struct strbuf *out, const char *text)
{
	if (text == NULL || *text == '\0')
		return;
	char first = (char)tolower((unsigned char)text[0]);
	strbuf_append(out, &first, 1);
	strbuf_puts(out, text + 1);
}

/* "local memory", or "memory" when the space is unknown. */
static void memory(struct strbuf *out, const struct finding *f)
{
	strbuf_printf(out, "%s%smemory", f->space ? f->space : "", f->space ? " " : "");
}

void finding_headline(struct strbuf *out, const struct finding *f)
{
	switch (f->kind) {
	case FINDING_RACE:
		strbuf_printf(out, "%s data race on ", f->what);
		memory(out, f);
		if (f->other.line > 0)
			strbuf_printf(out, ": this %s conflicts with a%s %s at line %d",
				      finding_access_word(f->at.access),
				      strchr("aeiou", finding_access_word(f->other.access)[0]) ? "n" : "",
				      finding_access_word(f->other.access), f->other.line);
		else if (f->nexample == 2 && f->example[0].is_item && f->example[1].is_item)
			/* A checker on a device may meet the other access before its line. */
			strbuf_printf(out,
				      ": this %s conflicts with another work-item's access, "
				      "whose line was not recorded in time",
				      finding_access_word(f->at.access));
		else
			strbuf_printf(out, ": this %s conflicts with a work-group operation",
				      finding_access_word(f->at.access));
		break;
	case FINDING_DIVERGENCE:
		if (strcmp(f->what, "fence flags") == 0)
			strbuf_printf(
				out,
				"work-group divergence at this barrier: its work-items pass it "
				"different fence flags, %s",
				f->info);
		else if (f->other.line > 0)
			strbuf_printf(out,
				      "work-group divergence: items of one work-group wait at "
				      "different %ss, here and at line %d",
				      strcmp(f->what, "barrier") == 0 ? "barrier" : f->what,
				      f->other.line);
		else {
			strbuf_printf(out, "work-group divergence at this %s: ", f->what);
			clause(out, f->info ? f->info : "not every work-item reached it");
		}
		break;
	case FINDING_OUT_OF_BOUNDS:
		if (strcmp(f->what, "index") == 0) {
			strbuf_printf(out, "out-of-bounds index into a %s%sarray: ",
				      f->space ? f->space : "", f->space ? " " : "");
			clause(out, f->info);
		} else if (strstr(f->what, "past the end") || strstr(f->what, "before the start")) {
			/* A guard zone on a real device caught it: no line, but the buffer. */
			strbuf_printf(out, "out-of-bounds %s: %s", f->what, f->info);
		} else if (strstr(f->what, "only")) {
			strbuf_printf(out, "invalid %s memory: the host made this buffer %s",
				      f->what,
				      strstr(f->what, "read-only") ? "CL_MEM_READ_ONLY"
								   : "CL_MEM_WRITE_ONLY");
		} else if (strstr(f->what, "mapped")) {
			strbuf_printf(out, "invalid %s memory: the host has this buffer mapped",
				      f->what);
		} else if (strstr(f->what, "aligned")) {
			strbuf_printf(out, "%s of ", f->what);
			memory(out, f);
			strbuf_puts(out, ": the pointer is not aligned to the size of its type");
		} else {
			strbuf_printf(out, "out-of-bounds %s of ", f->what);
			memory(out, f);
		}
		break;
	case FINDING_UNINITIALIZED:
		if (strcmp(f->what, "value written") == 0) {
			strbuf_puts(out, "uninitialized value written to ");
			memory(out, f);
		} else if (strcmp(f->what, "control flow") == 0) {
			strbuf_puts(out, "control flow depends on an uninitialized value");
		} else if (strcmp(f->what, "index value") == 0) {
			strbuf_puts(out, "an index depends on an uninitialized value");
		} else {
			strbuf_printf(out, "uninitialized %s ", f->what);
			strbuf_puts(out, strstr(f->what, "read") ? "from " : "to ");
			memory(out, f);
		}
		break;
	case FINDING_ASYNC_COPY:
		if (strcmp(f->what, "not waited for") == 0)
			strbuf_puts(out, "the work-group finished without waiting for its async "
					 "copies (wait_group_events), so what they copy may never "
					 "arrive");
		else
			strbuf_puts(out, "wait_group_events waits for an event that no async copy "
					 "of this work-group made");
		break;
	case FINDING_API_ERROR:
		strbuf_printf(out, "OpenCL API error: %s", f->info);
		break;
	case FINDING_SIMULATOR_ERROR:
		strbuf_printf(out, "Oclgrind stopped the kernel: %s",
			      f->info ? f->info : "a fatal error");
		break;
	case FINDING_TRUNCATED:
		/* what names the checker whose record was cut; none is the simulator. */
		if (f->what)
			strbuf_printf(out,
				      "%s's record held %s findings and was cut there, so this run "
				      "is incomplete: what came after was never reported; run at a "
				      "smaller size",
				      f->what, f->info);
		else
			strbuf_printf(out,
				      "Oclgrind stopped reporting after %s diagnostics, so this run "
				      "is incomplete: what came after, races among it, was never "
				      "checked; run at a smaller size",
				      f->info);
		return;
	case FINDING_OTHER:
		if (f->what)
			strbuf_puts(out, f->info ? f->info : f->what);
		else
			strbuf_printf(out, "Oclgrind: %s", f->info);
		break;
	}
	if (f->kind == FINDING_RACE && f->severity == DIAG_WARNING)
		strbuf_puts(out, "; both writes store the same value, so devices show nothing, "
				 "but OpenCL leaves the result undefined");
	if (f->kind == FINDING_UNINITIALIZED && f->severity == DIAG_NOTE)
		strbuf_puts(out, "; not confirmed: Oclgrind 21.10 marks what "
				 "async_work_group_strided_copy fills as uninitialised, and a run "
				 "with the copies written out as loads and stores found no such "
				 "value here");
	strbuf_printf(out, " (%lu time%s", f->count, f->count == 1 ? "" : "s");
	if (f->kernel)
		strbuf_printf(out, ", kernel %s", f->kernel);
	if (f->input_set)
		strbuf_printf(out, ", with the %s inputs", f->input_set);
	strbuf_puts(out, ")");
}

void finding_note(struct strbuf *out, const struct finding *f)
{
	if (f->nexample == 0)
		return;
	if (f->kind == FINDING_RACE && f->nexample == 2) {
		/* The note stands at the other access: name its item first. */
		strbuf_printf(out, "the conflicting %s: e.g. %s",
			      finding_access_word(f->other.access),
			      f->example[1].is_item ? "work-item " : "");
		finding_entity(out, &f->example[1]);
		strbuf_printf(out, " made it while ");
		finding_entity(out, &f->example[0]);
		strbuf_printf(out, " made the %s at line %d:%d", finding_access_word(f->at.access),
			      f->at.line, f->at.col);
		return;
	}
	if (f->kind == FINDING_DIVERGENCE && f->other.line > 0)
		strbuf_puts(out, "the other barrier; ");
	strbuf_puts(out, "e.g. ");
	strbuf_puts(out, f->example[0].is_item ? "work-item " : "");
	finding_entity(out, &f->example[0]);
}

void finding_normal(struct strbuf *out, const struct finding *f)
{
	if (f->suppressed)
		strbuf_puts(out, "suppressed ");
	strbuf_printf(out, "%s %s", diag_severity_name(f->severity), finding_kind_name(f->kind));
	if (f->what) {
		/* One word a field: "value written" becomes value-written. */
		strbuf_puts(out, " ");
		for (const char *p = f->what; *p; p++)
			strbuf_append(out, *p == ' ' ? "-" : p, 1);
	}
	if (f->space)
		strbuf_printf(out, " %s", f->space);
	if (f->at.line > 0)
		strbuf_printf(out, " %d", f->at.line);
	if (f->other.line > 0)
		strbuf_printf(out, " %d", f->other.line);
	if (keyed_by_info(f->kind) && f->info)
		strbuf_printf(out, ": %s", f->info);
}
