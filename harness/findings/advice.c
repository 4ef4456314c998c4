/* advice.c - where the fix of a finding goes, read from the finding and the kernel's
 * source: the lines it names, the barriers between them and their fences, the loop or
 * branch around them. The source is read as text, line by line, as a person would: no
 * parser, so the advice names what it saw ("the barrier at line 12") and says so. */
#include "config.h"

#include "findings/advice.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Line n (from 1) of source and its length; NULL past the end. */
static const char *line_at(const char *source, int n, size_t *len)
{
	if (source == NULL || n < 1)
		return NULL;
	const char *p = source;
	for (int i = 1; i < n; i++) {
		p = strchr(p, '\n');
		if (p == NULL)
			return NULL;
		p++;
	}
	const char *end = strchr(p, '\n');
	*len = end ? (size_t)(end - p) : strlen(p);
	return p;
}

/* Whether line n holds `word`. */
static bool line_has(const char *source, int n, const char *word)
{
	size_t len;
	const char *p = line_at(source, n, &len);
	if (p == NULL)
		return false;
	char *text = xstrndup(p, len);
	bool has = strstr(text, word) != NULL;
	free(text);
	return has;
}

/* The first barrier strictly between lines `from` and `to`: its line, and which memory
 * its fence flags name. 0 when there is none. */
static int barrier_between(const char *source, int from, int to, bool *local, bool *global)
{
	/* Lines come from a log: one past the file's end would scan it to no end. */
	if (source == NULL)
		return 0;
	int lines = 1;
	for (const char *c = source; *c; c++)
		lines += *c == '\n';
	if (to > lines + 1)
		to = lines + 1;
	if (from < 0)
		from = 0;
	for (int n = from + 1; n < to; n++) {
		if (!line_has(source, n, "barrier("))
			continue;
		*local = line_has(source, n, "CLK_LOCAL_MEM_FENCE");
		*global = line_has(source, n, "CLK_GLOBAL_MEM_FENCE");
		return n;
	}
	return 0;
}

/* Whether a statement reads the element it writes: x += v, x++, or x = x + v. */
static bool read_modify_write(const char *source, int n)
{
	size_t len;
	const char *p = line_at(source, n, &len);
	if (p == NULL)
		return false;
	char *text = xstrndup(p, len);
	bool rmw = false;
	static const char *const ops[] = { "+=", "-=", "*=", "|=", "&=", "^=", "++", "--" };
	for (size_t i = 0; i < sizeof ops / sizeof ops[0] && !rmw; i++)
		rmw = strstr(text, ops[i]) != NULL;
	for (char *eq = strchr(text, '='); eq && !rmw; eq = strchr(eq + 1, '=')) {
		if (eq[1] == '=' || (eq > text && strchr("=!<>", eq[-1])))
			continue;
		char *lhs = text;
		while (isspace((unsigned char)*lhs))
			lhs++;
		size_t lhs_len = (size_t)(eq - lhs);
		while (lhs_len > 0 && isspace((unsigned char)lhs[lhs_len - 1]))
			lhs_len--;
		if (lhs_len > 0) {
			char *target = xstrndup(lhs, lhs_len);
			rmw = strstr(eq + 1, target) != NULL;
			free(target);
		}
		break;
	}
	free(text);
	return rmw;
}

/* The statement that controls line n: the loop or branch header of the block that holds
 * it (or of the line itself, for a body without braces). Copies the header, from its
 * keyword to its closing parenthesis, to *header and returns its line; 0 when the line
 * is directly in the kernel's body. */
static int controlling_header(const char *source, int n, char **header)
{
	*header = NULL;
	if (source == NULL)
		return 0;
	int depth = 0;
	int at = 0;
	/* A body without braces: the line above is a header that ends without ; or {. */
	size_t len;
	for (int k = n - 1; k >= 1 && at == 0; k--) {
		const char *p = line_at(source, k, &len);
		if (p == NULL)
			break;
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		if (len == 0)
			continue;
		if (p[len - 1] == ')')
			at = k;
		break;
	}
	/* Else the block around it: scan back for the { that opens it. */
	for (int k = n; k >= 1 && at == 0; k--) {
		const char *p = line_at(source, k, &len);
		if (p == NULL)
			continue;
		for (size_t i = len; i-- > 0 && at == 0;) {
			if (k == n)
				continue; /* braces on the line itself open or close its own blocks
					   */
			if (p[i] == '}')
				depth++;
			else if (p[i] == '{' && depth-- == 0)
				at = k;
		}
	}
	if (at == 0)
		return 0;
	/* The header is on the brace's line, or the line above. */
	for (int k = at; k >= at - 1 && k >= 1; k--) {
		const char *p = line_at(source, k, &len);
		if (p == NULL)
			continue;
		char *text = xstrndup(p, len);
		static const char *const keys[] = { "if", "for", "while", "else", "kernel" };
		char *hit = NULL;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0] && hit == NULL; i++) {
			for (char *s = strstr(text, keys[i]); s; s = strstr(s + 1, keys[i])) {
				bool starts = s == text || !isalnum((unsigned char)s[-1]);
				char next = s[strlen(keys[i])];
				if (starts && (next == ' ' || next == '(' || next == '\0')) {
					hit = s;
					break;
				}
			}
		}
		if (hit && strncmp(hit, "kernel", 6) == 0) {
			free(text);
			return 0;
		}
		if (hit) {
			char *open = strchr(hit, '(');
			char *end = hit + strlen(hit);
			if (open) {
				int parens = 0;
				for (char *c = open; *c; c++) {
					parens += *c == '(';
					parens -= *c == ')';
					if (parens == 0) {
						end = c + 1;
						break;
					}
				}
			}
			*header = xstrndup(hit, (size_t)(end - hit));
			free(text);
			return k;
		}
		free(text);
	}
	return 0;
}

static bool is_loop(const char *header)
{
	return header && (strncmp(header, "for", 3) == 0 || strncmp(header, "while", 5) == 0);
}

/* The loops and branches around line n, innermost first, at most `max`. Returns how many;
 * the caller frees each header. */
#define CHAIN_MAX 16
static size_t header_chain(const char *source, int n, char **headers, int *lines)
{
	size_t count = 0;
	for (int at = n; count < CHAIN_MAX;) {
		char *header;
		int line = controlling_header(source, at, &header);
		if (line == 0 || line >= at)
			break;
		headers[count] = header;
		lines[count++] = line;
		at = line;
	}
	return count;
}

static void free_chain(char **headers, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(headers[i]);
}

/* The innermost header of the chain that is a loop (want_loop) or a branch; -1: none. */
static long find_in_chain(char **headers, size_t count, bool want_loop)
{
	for (size_t i = 0; i < count; i++)
		if (is_loop(headers[i]) == want_loop && strncmp(headers[i], "else", 4) != 0)
			return (long)i;
	return -1;
}

/* Whether the finding's two work-items are in different work-groups; false when it does
 * not say. */
static bool across_groups(const struct finding *f)
{
	if (f->nexample < 2 || !f->example[0].is_item || !f->example[1].is_item)
		return false;
	for (int d = 0; d < 3; d++)
		if (f->example[0].group[d] != f->example[1].group[d])
			return true;
	return false;
}

/* Whether a race between a work-group's async copy and a work-item's access has them in
 * different work-groups, which no barrier or wait orders. */
static bool copy_across_groups(const struct finding *f)
{
	if (f->nexample < 2 || f->example[0].is_item == f->example[1].is_item)
		return false;
	for (int d = 0; d < 3; d++)
		if (f->example[0].group[d] != f->example[1].group[d])
			return true;
	return false;
}

static const char *fence_of(const char *space)
{
	return space && strcmp(space, "global") == 0 ? "CLK_GLOBAL_MEM_FENCE"
						     : "CLK_LOCAL_MEM_FENCE";
}

static void race_advice(const struct finding *f, const char *source, struct advice *a)
{
	int first = f->other.line > 0 && f->other.line < f->at.line ? f->other.line : f->at.line;
	int last = f->other.line > f->at.line ? f->other.line : f->at.line;
	bool global = f->space && strcmp(f->space, "global") == 0;
	bool same_line = f->other.line == 0 || f->other.line == f->at.line;
	char *chain[CHAIN_MAX];
	int chain_lines[CHAIN_MAX];
	size_t depth = header_chain(source, f->at.line, chain, chain_lines);
	long loop = find_in_chain(chain, depth, true);
	const char *header = loop >= 0 ? chain[loop] : NULL;
	int header_line = loop >= 0 ? chain_lines[loop] : 0;
	bool rmw = same_line && read_modify_write(source, f->at.line);
	int copy = f->at.access == 'c' ? f->at.line : f->other.access == 'c' ? f->other.line : 0;

	if (copy > 0) {
		int own = copy == f->at.line ? f->other.line : f->at.line;
		const char *space = f->space ? f->space : "the same";
		a->line = copy;
		if (copy_across_groups(f))
			a->text = xasprintf(
				"fix: the async copy at line %d is one work-group's and the access "
				"at line %d another's, and neither a barrier nor a wait orders "
				"work-groups: copy only the elements the group itself writes, or "
				"do line %d in a second launch (a launch is the only barrier "
				"across the whole grid)",
				copy, own, own > copy ? own : copy);
		else if (own < copy)
			a->text =
				xasprintf("fix: the work-items' access at line %d and the async "
					  "copy at line %d touch %s memory with nothing to order "
					  "them: put barrier(%s) between them, where every item of "
					  "the work-group reaches it",
					  own, copy, space, fence_of(f->space));
		else
			a->text =
				xasprintf("fix: the async copy at line %d and the work-items' "
					  "access at line %d touch %s memory with nothing to order "
					  "them: wait_group_events for the copy, then barrier(%s), "
					  "before the access, in every work-item",
					  copy, own, space, fence_of(f->space));
	} else if (rmw &&
		   (strcmp(f->what, "write-write") == 0 || header == NULL || across_groups(f))) {
		a->text = xasprintf(
			"fix: several work-items read, change and write the same element "
			"here, and all but one update is lost: make the update one atomic "
			"operation (atomic_add, atomic_inc, atomic_max, ...), or give each "
			"item its own element and combine them afterwards");
	} else if (global && across_groups(f) && same_line) {
		a->text =
			xasprintf("fix: work-items of different work-groups reach the same element "
				  "here: check that the index gives each item its own element, or "
				  "make the access atomic");
	} else if (global && across_groups(f)) {
		a->text = xasprintf(
			"fix: these work-items are in different work-groups, and no barrier orders "
			"work-groups: end the kernel after line %d and do line %d in a second "
			"launch (a launch is the only barrier across the whole grid), give each "
			"group its own elements, or make the accesses atomic",
			first, last);
	} else if (same_line && header) {
		a->line = f->at.line;
		a->text =
			xasprintf("fix: line %d races with itself from one pass of `%s` (line %d) "
				  "to the next: put barrier(%s) in the loop after line %d, where "
				  "every item of the work-group reaches it on every pass",
				  f->at.line, header, header_line, fence_of(f->space), f->at.line);
	} else {
		bool local_fence = false, global_fence = false;
		int barrier = barrier_between(source, first, last, &local_fence, &global_fence);
		bool fenced = global ? global_fence : local_fence;
		if (barrier > 0 && !fenced) {
			a->line = barrier;
			a->text = xasprintf(
				"fix: this barrier fences only %s memory, so it does not "
				"order the %s-memory accesses at lines %d and %d: add %s, as "
				"barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)",
				global ? "local" : "global", global ? "global" : "local", first,
				last, fence_of(f->space));
		} else if (same_line) {
			a->text = xasprintf(
				"fix: several work-items touch the same element here with "
				"nothing to order them: give each item its own element, or "
				"order them with barrier(%s) where every item of the work-group "
				"reaches it",
				fence_of(f->space));
		} else {
			a->line = first;
			a->text = xasprintf(
				"fix: nothing orders line %d before line %d for the "
				"work-items of one work-group: put barrier(%s) after line %d, "
				"where every item of the work-group reaches it",
				first, last, fence_of(f->space), first);
		}
	}
	free_chain(chain, depth);
}

/* Whether line n holds `word` as a whole word of code, outside a // comment. */
static bool line_has_word(const char *source, int n, const char *word)
{
	size_t len, wlen = strlen(word);
	const char *p = line_at(source, n, &len);
	if (p == NULL)
		return false;
	for (size_t i = 0; i + wlen <= len; i++) {
		if (p[i] == '/' && i + 1 < len && p[i + 1] == '/')
			return false;
		if (memcmp(p + i, word, wlen) == 0 &&
		    (i == 0 || !(isalnum((unsigned char)p[i - 1]) || p[i - 1] == '_')) &&
		    (i + wlen == len ||
		     !(isalnum((unsigned char)p[i + wlen]) || p[i + wlen] == '_')))
			return true;
	}
	return false;
}

/* The last `return`, `break` or `continue` before line n in its kernel (from the line
 * naming `kernel` at or above it): an item that leaves there never reaches the barrier
 * at line n that the others wait at. Returns its line, the word in *word; 0: none. */
static int early_exit_before(const char *source, int n, const char **word)
{
	static const char *const exits[] = { "return", "break", "continue" };
	for (int k = n - 1; k >= 1; k--) {
		for (size_t e = 0; e < sizeof exits / sizeof exits[0]; e++)
			if (line_has_word(source, k, exits[e])) {
				*word = exits[e];
				return k;
			}
		if (line_has_word(source, k, "kernel") || line_has_word(source, k, "__kernel"))
			return 0;
	}
	return 0;
}

static void divergence_advice(const struct finding *f, const char *source, struct advice *a)
{
	if (strcmp(f->what, "fence flags") == 0) {
		a->text =
			xstrdup("fix: give this barrier the same fence flags in every work-item, "
				"constants rather than a value that differs between items "
				"(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE where some items need "
				"each)");
		return;
	}
	const char *exit_word = NULL;
	int exit_line = source ? early_exit_before(source, f->at.line, &exit_word) : 0;
	if (exit_line > 0) {
		a->line = exit_line;
		a->text = xasprintf(
			"fix: the `%s` at line %d lets some work-items leave before the %s at "
			"line %d, which the others then wait at: every item of a work-group must "
			"reach the same barriers, so keep every item to the barrier and guard "
			"only its work (if (i < n) { ... }) instead of leaving early",
			exit_word, exit_line, f->what, f->at.line);
		return;
	}
	char *chain[CHAIN_MAX];
	int chain_lines[CHAIN_MAX];
	size_t depth = header_chain(source, f->at.line, chain, chain_lines);
	/* A branch decides per item more often than a loop does: the nearest branch, else
	 * the nearest loop. */
	long pick = find_in_chain(chain, depth, false);
	if (pick < 0)
		pick = find_in_chain(chain, depth, true);
	const char *header = pick >= 0 ? chain[pick] : NULL;
	int line = pick >= 0 ? chain_lines[pick] : 0;
	if (header) {
		a->line = line;
		a->text = xasprintf(
			"fix: the %s at line %d is reached only by the work-items for "
			"which `%s` decides so, and every item of a work-group must reach "
			"the same barriers: move the %s out of that %s, and keep the "
			"condition on the work alone",
			f->what, f->at.line, header, f->what,
			is_loop(header) ? "loop (or give every item the same number of "
					  "passes)"
					: "branch");
	} else {
		a->text = xasprintf("fix: every item of a work-group must reach the same %ss, the "
				    "same number of times: take this %s out of any branch or loop "
				    "whose condition differs between items",
				    f->what, f->what);
	}
	free_chain(chain, depth);
}

/* How many lines source holds. */
static int line_count(const char *source)
{
	int n = 1;
	for (const char *p = strchr(source, '\n'); p; p = strchr(p + 1, '\n'))
		n++;
	return n;
}

bool advice_for(const struct finding *f, const char *source, struct advice *a)
{
	*a = (struct advice){ 0 };
	/* Lines the source does not have are no file's the finding came from (a log of
	 * another version, or a hostile one): the advice rests on the finding alone, and
	 * no scan walks back from a line millions past the end. */
	if (source) {
		int lines = line_count(source);
		if (f->at.line > lines || f->other.line > lines)
			source = NULL;
	}
	switch (f->kind) {
	case FINDING_RACE:
		race_advice(f, source, a);
		return true;
	case FINDING_DIVERGENCE:
		divergence_advice(f, source, a);
		return true;
	case FINDING_OUT_OF_BOUNDS:
		if (f->what && strstr(f->what, "read-only"))
			a->text = xstrdup("fix: write the results to a buffer the host made "
					  "writable, or make this one CL_MEM_READ_WRITE (access: "
					  "read-write in a case)");
		else if (f->what && strstr(f->what, "write-only"))
			a->text =
				xstrdup("fix: read what the kernel needs from another buffer, "
					"or make this one CL_MEM_READ_WRITE (access: read-write in "
					"a case)");
		else if (f->what && strstr(f->what, "mapped"))
			a->text = xstrdup("fix: unmap the buffer (clEnqueueUnmapMemObject) before "
					  "the kernel is enqueued");
		else if (f->what && strstr(f->what, "aligned"))
			a->text =
				xstrdup("fix: the pointer was cast from a narrower type at an "
					"offset that is no multiple of the wider type's size: read "
					"through the original type, or with vload/vstore, which "
					"take any offset of their element");
		else
			a->text = xstrdup(
				"fix: for some work-items the index runs past the end of the "
				"memory it reads or writes: guard the access with the element "
				"count (if (i < n)), or size the buffer or array for the whole "
				"launch");
		return true;
	case FINDING_ASYNC_COPY:
		a->text = xstrdup(
			strcmp(f->what, "not waited for") == 0
				? "fix: call wait_group_events with the event async_work_group_copy "
				  "returned, in every work-item of the group, before the copied "
				  "memory is used and before the kernel ends"
				: "fix: wait only for events an async_work_group_copy or "
				  "async_work_group_strided_copy of this work-group returned; an "
				  "event_t never set is no event");
		return true;
	case FINDING_UNINITIALIZED:
		/* The identity is a reduction's word: only where the line adds into what
		 * it reads. */
		a->text = xstrdup(
			source && read_modify_write(source, f->at.line)
				? "fix: a value is used before anything wrote it: give every "
				  "element a value first, on every path (the identity of the "
				  "operation, 0 for a sum, for the items past the end), and a "
				  "barrier before others read it"
				: "fix: a value is used before anything wrote it: give every "
				  "element a value first, on every path, and a barrier between "
				  "the writes and others' reads");
		return true;
	default:
		return false;
	}
}

bool advice_for_file(const struct finding *f, const char *file, struct advice *a)
{
	char *source = file ? read_file(file, NULL) : NULL;
	bool any = advice_for(f, source, a);
	free(source);
	return any;
}

void advice_free(struct advice *a)
{
	free(a->text);
	*a = (struct advice){ 0 };
}
