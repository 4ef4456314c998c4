/* mutsites.c - mutation sites found in a kernel's syntax by libclang (mutsites.h).
 *
 * The syntax tree says what each construct is (a call of barrier, a relational operator,
 * a subscript, an if without else, a for loop); the tokens of its extent say where its
 * text is, so that a mutant changes exactly the characters the construct was written
 * with. A construct written through a macro has tokens that are not its own text: it is
 * left alone, since no edit of the source seeds that mistake in it alone. */
#include "config.h"

#include "source/mutsites.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const operator_names[MUT_OPERATORS] = {
	"barrier", "fence", "atomic", "bound", "index", "id", "guard", "step",
	"empty",   "write", "lockstep", "return",
};

const char *mut_operator_name(enum mut_operator op)
{
	return op < MUT_OPERATORS ? operator_names[op] : "?";
}

const char *mut_operator_names(void)
{
	return "barrier, fence, atomic, bound, index, id, guard, step, empty, write, lockstep, "
	       "return";
}

int mut_operators_parse(const char *list, unsigned *bits, char **why)
{
	*bits = 0;
	char *copy = xstrdup(list);
	int status = 0;
	for (char *save = NULL, *w = strtok_r(copy, ", ", &save); w && status == 0;
	     w = strtok_r(NULL, ", ", &save)) {
		unsigned op = 0;
		while (op < MUT_OPERATORS && strcmp(operator_names[op], w) != 0)
			op++;
		if (op == MUT_OPERATORS) {
			*why = xasprintf("no operator is called '%s' (the operators are %s)", w,
					 mut_operator_names());
			status = -1;
		}
		*bits |= 1u << op;
	}
	free(copy);
	if (status == 0 && *bits == 0) {
		*why = xasprintf("--operators names none (the operators are %s)",
				 mut_operator_names());
		status = -1;
	}
	return status;
}

void mutation_list_free(struct mutation_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->items[i].replacement);
		free(l->items[i].what);
	}
	free(l->items);
	*l = (struct mutation_list){ 0 };
}

char *mutation_apply(const char *source, size_t len, const struct mutation *m)
{
	struct strbuf out = { 0 };
	strbuf_append(&out, source, m->start <= len ? m->start : len);
	strbuf_puts(&out, m->replacement);
	if (m->end < len)
		strbuf_append(&out, source + m->end, len - m->end);
	char *text = strbuf_take(&out);
	return text ? text : xstrdup("");
}

#ifndef HAVE_LIBCLANG

bool mutsites_available(void)
{
	return false;
}

int mutsites_find(const char *path, const char *options, unsigned ops,
		  char *const *kernels, size_t nkernels, struct mutation_list *out,
		  struct diag_list *diags)
{
	*out = (struct mutation_list){ 0 };
	diag_add(diags, DIAG_ERROR, path, 0, 0,
		 "this clharness was built without libclang (configure --without-libclang), "
		 "so it finds no mutation sites: install libclang-dev and build it again");
	return -1;
}

#else

#include "source/clangapi.h"

bool mutsites_available(void)
{
	return clang_api_available();
}

/* The tokens of one construct, with their text and places. */
struct tok {
	char *text;
	size_t start, end; /* byte offsets in the main file */
	int line, col;
};

struct toks {
	struct tok *t;
	size_t n;
};

static void toks_free(struct toks *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		free(ts->t[i].text);
	free(ts->t);
	*ts = (struct toks){ 0 };
}

/* The tokens of cursor c's extent; false where any of them is not the main file's own
 * text (the construct comes from a macro, or from another file). */
static bool tokens_of(CXTranslationUnit tu, CXCursor c, struct toks *out)
{
	*out = (struct toks){ 0 };
	CXSourceRange range = clang_api.clang_getCursorExtent(c);
	if (!clang_api.clang_Location_isFromMainFile(clang_api.clang_getRangeStart(range)))
		return false;
	CXToken *tokens = NULL;
	unsigned n = 0;
	clang_api.clang_tokenize(tu, range, &tokens, &n);
	bool ok = n > 0;
	out->t = xcalloc(n ? n : 1, sizeof *out->t);
	for (unsigned i = 0; i < n && ok; i++) {
		CXSourceRange extent = clang_api.clang_getTokenExtent(tu, tokens[i]);
		CXSourceLocation from = clang_api.clang_getRangeStart(extent);
		unsigned line, col, start, end;
		ok = clang_api.clang_Location_isFromMainFile(from);
		clang_api.clang_getSpellingLocation(from, NULL, &line, &col, &start);
		clang_api.clang_getSpellingLocation(clang_api.clang_getRangeEnd(extent), NULL, NULL,
						    NULL, &end);
		struct tok *t = &out->t[out->n++];
		*t = (struct tok){ clang_api_text(clang_api.clang_getTokenSpelling(tu, tokens[i])),
				   start, end, (int)line, (int)col };
	}
	if (tokens)
		clang_api.clang_disposeTokens(tu, tokens, n);
	if (!ok)
		toks_free(out);
	return ok;
}

static bool is(const struct tok *t, const char *text)
{
	return strcmp(t->text, text) == 0;
}

/* Index of the token closing the bracket opened at `open`; n where there is none. */
static size_t closing(const struct toks *ts, size_t open)
{
	const char *o = ts->t[open].text;
	const char *c = strcmp(o, "(") == 0 ? ")" : strcmp(o, "[") == 0 ? "]" : "}";
	int depth = 0;
	for (size_t i = open; i < ts->n; i++) {
		if (is(&ts->t[i], o))
			depth++;
		else if (is(&ts->t[i], c) && --depth == 0)
			return i;
	}
	return ts->n;
}

/* A call's arguments as token ranges [from[k], to[k]), split at the commas outside any
 * bracket; the call's own tokens are `name ( ... )`. Returns how many, up to max; -1 where
 * the tokens are no such call. */
static int call_args(const struct toks *ts, size_t *from, size_t *to, int max)
{
	if (ts->n < 3 || !is(&ts->t[1], "(") || closing(ts, 1) != ts->n - 1)
		return -1;
	int count = 0, depth = 0;
	size_t at = 2;
	for (size_t i = 2; i < ts->n; i++) {
		const struct tok *t = &ts->t[i];
		if (is(t, "(") || is(t, "[") || is(t, "{"))
			depth++;
		else if ((is(t, ")") || is(t, "]") || is(t, "}")) && depth > 0)
			depth--;
		else if ((is(t, ",") && depth == 0) || i == ts->n - 1) {
			if (i > at && count < max) {
				from[count] = at;
				to[count] = i;
				count++;
			}
			at = i + 1;
		}
	}
	return count;
}

/* The source text of tokens [a, b) of ts, as written. */
static char *text_between(const char *src, const struct toks *ts, size_t a, size_t b)
{
	size_t s = ts->t[a].start, e = ts->t[b - 1].end;
	return xstrndup(src + s, e - s);
}

struct finder {
	CXTranslationUnit tu;
	const char *src; /* the file's text, for the constructs' own spelling */
	unsigned ops;
	char *const *kernels; /* the kernels the subject runs; none: all */
	size_t nkernels;
	struct mutation_list *out;
	/* The function being walked: where its text ends, whether it is a kernel, and the
	 * names of its parameters that point to global memory (a kernel's outputs). */
	size_t fn_end;
	bool in_kernel;
	char **globals;
	size_t nglobals;
	/* Where each barrier call of the file is, as offsets of the text that makes it (a
	 * macro's use, for a barrier written through one): the early-return mutant needs
	 * one after its if. */
	size_t *barriers;
	size_t nbarriers;
};

static void add(struct finder *f, enum mut_operator op, const struct tok *at, size_t start,
		size_t end, char *replacement, char *what)
{
	for (size_t i = 0; i < f->out->count; i++) {
		const struct mutation *m = &f->out->items[i];
		if (m->start == start && m->end == end && strcmp(m->replacement, replacement) == 0) {
			free(replacement);
			free(what);
			return; /* one mistake, found through two constructs */
		}
	}
	f->out->items = xreallocarray(f->out->items, f->out->count + 1, sizeof *f->out->items);
	f->out->items[f->out->count++] = (struct mutation){ op, at->line, at->col, start, end,
							     replacement, what };
}

static bool wants(const struct finder *f, enum mut_operator op)
{
	return (f->ops >> op) & 1u;
}

/* barrier(FLAGS) removed, and its flags (or a fence's) changed. */
static void fence_call(struct finder *f, const struct toks *ts, bool barrier)
{
	size_t from[2], to[2];
	if (call_args(ts, from, to, 2) < 1)
		return;
	char *call = text_between(f->src, ts, 0, ts->n);
	if (barrier && wants(f, MUT_BARRIER))
		add(f, MUT_BARRIER, &ts->t[0], ts->t[0].start, ts->t[ts->n - 1].end,
		    xstrdup("(void)0"), xasprintf("%s removed", call));
	/* The lock-step myth: a work-group the size of a warp needs no barrier. */
	if (barrier && wants(f, MUT_LOCKSTEP))
		add(f, MUT_LOCKSTEP, &ts->t[0], ts->t[0].start, ts->t[ts->n - 1].end,
		    xasprintf("(get_local_size(0) * get_local_size(1) * get_local_size(2) > 32 ? "
			      "%s : (void)0)",
			      call),
		    xasprintf("%s taken only by work-groups of more than 32 items", call));
	free(call);
	if (!wants(f, MUT_FENCE))
		return;
	char *flags = text_between(f->src, ts, from[0], to[0]);
	bool local = strstr(flags, "CLK_LOCAL_MEM_FENCE") != NULL;
	bool global = strstr(flags, "CLK_GLOBAL_MEM_FENCE") != NULL;
	const struct tok *at = &ts->t[from[0]];
	size_t s = at->start, e = ts->t[to[0] - 1].end;
	if (local && !global)
		add(f, MUT_FENCE, at, s, e, xstrdup("CLK_GLOBAL_MEM_FENCE"),
		    xasprintf("%s made CLK_GLOBAL_MEM_FENCE", flags));
	if (global && !local)
		add(f, MUT_FENCE, at, s, e, xstrdup("CLK_LOCAL_MEM_FENCE"),
		    xasprintf("%s made CLK_LOCAL_MEM_FENCE", flags));
	if (global && local) {
		add(f, MUT_FENCE, at, s, e, xstrdup("CLK_GLOBAL_MEM_FENCE"),
		    xasprintf("CLK_LOCAL_MEM_FENCE dropped from %s", flags));
		add(f, MUT_FENCE, at, s, e, xstrdup("CLK_LOCAL_MEM_FENCE"),
		    xasprintf("CLK_GLOBAL_MEM_FENCE dropped from %s", flags));
	}
	free(flags);
}

/* An atomic read-modify-write in its plain form: the same value for the caller where it
 * uses the old one (add, sub, inc, dec, cmpxchg), the new one for the others. */
static void atomic_call(struct finder *f, const struct toks *ts, const char *name)
{
	const char *op = strncmp(name, "atomic_", 7) == 0 ? name + 7
			 : strncmp(name, "atom_", 5) == 0 ? name + 5
							   : NULL;
	size_t from[3], to[3];
	int n = op ? call_args(ts, from, to, 3) : -1;
	if (n < 1)
		return;
	char *a[3] = { NULL, NULL, NULL };
	for (int i = 0; i < n; i++)
		a[i] = text_between(f->src, ts, from[i], to[i]);
	char *plain = NULL;
	if (n == 2 && strcmp(op, "add") == 0)
		plain = xasprintf("((*(%s) += (%s)) - (%s))", a[0], a[1], a[1]);
	else if (n == 2 && strcmp(op, "sub") == 0)
		plain = xasprintf("((*(%s) -= (%s)) + (%s))", a[0], a[1], a[1]);
	else if (n == 1 && strcmp(op, "inc") == 0)
		plain = xasprintf("((*(%s))++)", a[0]);
	else if (n == 1 && strcmp(op, "dec") == 0)
		plain = xasprintf("((*(%s))--)", a[0]);
	else if (n == 2 && (strcmp(op, "min") == 0 || strcmp(op, "max") == 0))
		plain = xasprintf("(*(%s) = %s(*(%s), (%s)))", a[0], op, a[0], a[1]);
	else if (n == 2 && strcmp(op, "and") == 0)
		plain = xasprintf("(*(%s) &= (%s))", a[0], a[1]);
	else if (n == 2 && strcmp(op, "or") == 0)
		plain = xasprintf("(*(%s) |= (%s))", a[0], a[1]);
	else if (n == 2 && strcmp(op, "xor") == 0)
		plain = xasprintf("(*(%s) ^= (%s))", a[0], a[1]);
	else if (n == 2 && strcmp(op, "xchg") == 0)
		plain = xasprintf("(*(%s) = (%s))", a[0], a[1]);
	else if (n == 3 && strcmp(op, "cmpxchg") == 0)
		plain = xasprintf("(*(%s) == (%s) ? (*(%s) = (%s), (%s)) : *(%s))", a[0], a[1],
				  a[0], a[2], a[1], a[0]);
	if (plain)
		add(f, MUT_ATOMIC, &ts->t[0], ts->t[0].start, ts->t[ts->n - 1].end, plain,
		    xasprintf("%s made a plain read-modify-write", name));
	for (int i = 0; i < n; i++)
		free(a[i]);
}

/* Whether a call of `name` is a work-group barrier. */
static bool is_barrier_call(const char *name)
{
	return strcmp(name, "barrier") == 0 || strcmp(name, "work_group_barrier") == 0;
}

static void call_sites(struct finder *f, CXCursor c)
{
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(c));
	struct toks ts;
	if (!tokens_of(f->tu, c, &ts)) {
		free(name);
		return;
	}
	if (!is(&ts.t[0], name)) { /* a call written through a macro */
		toks_free(&ts);
		free(name);
		return;
	}
	if (is_barrier_call(name))
		fence_call(f, &ts, true);
	else if (strcmp(name, "mem_fence") == 0 || strcmp(name, "read_mem_fence") == 0 ||
		 strcmp(name, "write_mem_fence") == 0)
		fence_call(f, &ts, false);
	else if (wants(f, MUT_ATOMIC) &&
		 (strncmp(name, "atomic_", 7) == 0 || strncmp(name, "atom_", 5) == 0))
		atomic_call(f, &ts, name);
	else if (wants(f, MUT_ID) &&
		 (strcmp(name, "get_local_id") == 0 || strcmp(name, "get_global_id") == 0)) {
		bool local = strcmp(name, "get_local_id") == 0;
		const char *other = local ? "get_global_id" : "get_local_id";
		const struct tok *t = &ts.t[0];
		add(f, MUT_ID, t, t->start, t->end, xstrdup(other),
		    xasprintf("%s made %s", name, other));
		add(f, MUT_ID, t, t->start, t->end, xstrdup("get_group_id"),
		    xasprintf("%s made get_group_id", name));
	}
	toks_free(&ts);
	free(name);
}

/* The one relational operator outside brackets in a binary operator's tokens: its own
 * (`a + 1 < n`); none where there are several or none (`a < b && c`'s own is &&). */
static void bound_site(struct finder *f, CXCursor c)
{
	struct toks ts;
	if (!tokens_of(f->tu, c, &ts))
		return;
	static const char *const from[] = { "<", "<=", ">", ">=" };
	static const char *const to[] = { "<=", "<", ">=", ">" };
	int depth = 0, found = -1, kind = -1, count = 0;
	for (size_t i = 0; i < ts.n; i++) {
		const struct tok *t = &ts.t[i];
		if (is(t, "(") || is(t, "["))
			depth++;
		else if ((is(t, ")") || is(t, "]")) && depth > 0)
			depth--;
		else if (depth == 0)
			for (int k = 0; k < 4; k++)
				if (is(t, from[k])) {
					found = (int)i;
					kind = k;
					count++;
				}
	}
	if (count == 1) {
		const struct tok *t = &ts.t[found];
		add(f, MUT_BOUND, t, t->start, t->end, xstrdup(to[kind]),
		    xasprintf("%s made %s", from[kind], to[kind]));
	}
	toks_free(&ts);
}

/* a[i] made a[(i) + 1] and a[(i) - 1]: the index between the last ] and its [. */
static void index_site(struct finder *f, CXCursor c)
{
	struct toks ts;
	if (!tokens_of(f->tu, c, &ts))
		return;
	size_t close = ts.n - 1, open = ts.n;
	if (is(&ts.t[close], "]")) {
		int depth = 0;
		for (size_t i = close + 1; i-- > 0;) {
			if (is(&ts.t[i], "]"))
				depth++;
			else if (is(&ts.t[i], "[") && --depth == 0) {
				open = i;
				break;
			}
		}
	}
	if (open + 1 < close) {
		char *index = text_between(f->src, &ts, open + 1, close);
		const struct tok *at = &ts.t[open + 1];
		size_t s = at->start, e = ts.t[close - 1].end;
		add(f, MUT_INDEX, at, s, e, xasprintf("(%s) + 1", index),
		    xasprintf("[%s] made [(%s) + 1]", index, index));
		add(f, MUT_INDEX, at, s, e, xasprintf("(%s) - 1", index),
		    xasprintf("[%s] made [(%s) - 1]", index, index));
		free(index);
	}
	toks_free(&ts);
}

/* Records every barrier call's place, before the walk that mutates. */
static enum CXChildVisitResult find_barriers(CXCursor c, CXCursor parent, CXClientData data)
{
	struct finder *f = data;
	(void)parent;
	if (clang_api.clang_getCursorKind(c) == CXCursor_CallExpr) {
		char *name = clang_api_text(clang_api.clang_getCursorSpelling(c));
		if (is_barrier_call(name)) {
			unsigned offset;
			CXFile file;
			clang_api.clang_getExpansionLocation(clang_api.clang_getCursorLocation(c),
							     &file, NULL, NULL, &offset);
			f->barriers = xreallocarray(f->barriers, f->nbarriers + 1,
						    sizeof *f->barriers);
			f->barriers[f->nbarriers++] = offset;
		}
		free(name);
	}
	return CXChildVisit_Recurse;
}

/* Whether a barrier is called in source bytes [from, to). */
static bool barrier_in(const struct finder *f, size_t from, size_t to)
{
	for (size_t i = 0; i < f->nbarriers; i++)
		if (f->barriers[i] >= from && f->barriers[i] < to)
			return true;
	return false;
}

/* if (cond) BODY, in a kernel, with a barrier after it: made { if (!(cond)) return;
 * BODY }, the items the guard kept out leaving before the barrier the others wait at. */
static void return_site(struct finder *f, const struct toks *ts, size_t close)
{
	if (!f->in_kernel || !wants(f, MUT_RETURN) ||
	    !barrier_in(f, ts->t[ts->n - 1].end, f->fn_end))
		return;
	char *cond = text_between(f->src, ts, 2, close);
	char *body = text_between(f->src, ts, close + 1, ts->n);
	add(f, MUT_RETURN, &ts->t[0], ts->t[0].start, ts->t[ts->n - 1].end,
	    xasprintf("{ if (!(%s)) return; %s; }", cond, body),
	    xasprintf("if (%s) made an early return before a later barrier", cond));
	free(cond);
	free(body);
}

/* The body of a kernel emptied: the submission that does nothing. */
static void empty_site(struct finder *f, CXCursor fn, const struct toks *ts)
{
	size_t open = 0;
	while (open < ts->n && !is(&ts->t[open], "{"))
		open++;
	if (open + 1 < ts->n && is(&ts->t[ts->n - 1], "}") && open + 2 < ts->n) {
		char *name = clang_api_text(clang_api.clang_getCursorSpelling(fn));
		add(f, MUT_EMPTY, &ts->t[open], ts->t[open].start, ts->t[ts->n - 1].end,
		    xstrdup("{\n}"), xasprintf("the body of kernel %s emptied", name));
		free(name);
	}
}

/* The parameters of function fn that point to global memory, by name, into f. */
static void note_globals(struct finder *f, CXCursor fn)
{
	strings_free(f->globals, (long)f->nglobals);
	f->globals = NULL;
	f->nglobals = 0;
	int n = clang_api.clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < n; i++) {
		CXCursor p = clang_api.clang_Cursor_getArgument(fn, (unsigned)i);
		struct toks ts;
		if (!tokens_of(f->tu, p, &ts))
			continue;
		bool global = false;
		for (size_t k = 0; k < ts.n; k++)
			global |= is(&ts.t[k], "global") || is(&ts.t[k], "__global");
		toks_free(&ts);
		if (!global)
			continue;
		f->globals = xreallocarray(f->globals, f->nglobals + 1, sizeof *f->globals);
		f->globals[f->nglobals++] = clang_api_text(clang_api.clang_getCursorSpelling(p));
	}
}

/* A statement writing a global buffer (out[i] = v, out[i] += v) removed: an output never
 * written, or written only in part. */
static void write_site(struct finder *f, CXCursor c, CXCursor parent)
{
	enum CXCursorKind pk = clang_api.clang_getCursorKind(parent);
	if (f->nglobals == 0 || (pk != CXCursor_CompoundStmt && pk != CXCursor_IfStmt))
		return;
	struct toks ts;
	if (!tokens_of(f->tu, c, &ts))
		return;
	/* NAME [ ... ] then an assignment operator at the top level. */
	bool to_global = false;
	for (size_t g = 0; ts.n > 3 && g < f->nglobals && !to_global; g++)
		to_global = is(&ts.t[0], f->globals[g]) && is(&ts.t[1], "[");
	size_t close = to_global ? closing(&ts, 1) : ts.n;
	static const char *const assigns[] = { "=", "+=", "-=", "*=", "/=", "|=", "&=", "^=" };
	bool assign = false;
	for (size_t k = 0; close + 1 < ts.n && k < sizeof assigns / sizeof *assigns; k++)
		assign |= is(&ts.t[close + 1], assigns[k]);
	if (assign) {
		char *target = text_between(f->src, &ts, 0, close + 1);
		add(f, MUT_WRITE, &ts.t[0], ts.t[0].start, ts.t[ts.n - 1].end, xstrdup("(void)0"),
		    xasprintf("the write to %s removed", target));
		free(target);
	}
	toks_free(&ts);
}

/* An if's children: its condition, its branch, its else where it has one. */
struct if_parts {
	CXCursor first;
	unsigned count;
};

static enum CXChildVisitResult count_child(CXCursor c, CXCursor parent, CXClientData data)
{
	struct if_parts *p = data;
	if (p->count++ == 0)
		p->first = c;
	return CXChildVisit_Continue;
}

/* The value of a condition the compiler folds (`GROUP_SIZE >= 256` of a kernel built for
 * one size): 1 true, 0 false, -1 where it depends on the run. */
static int constant_condition(CXCursor cond)
{
	CXEvalResult r = clang_api.clang_Cursor_Evaluate(cond);
	if (r == NULL)
		return -1;
	int value = clang_api.clang_EvalResult_getKind(r) == CXEval_Int
			    ? clang_api.clang_EvalResult_getAsLongLong(r) != 0
			    : -1;
	clang_api.clang_EvalResult_dispose(r);
	return value;
}

/* if (cond) made if (1), where the if has no else and its condition depends on the run:
 * the guard gone. Returns false where the if is dead code (a constant false condition and
 * no else), whose mistakes no run can show: nothing in it is mutated. */
static bool guard_site(struct finder *f, CXCursor c)
{
	struct if_parts parts = { .count = 0 };
	clang_api.clang_visitChildren(c, count_child, &parts);
	int constant = parts.count >= 1 ? constant_condition(parts.first) : -1;
	if (constant == 0 && parts.count == 2)
		return false;
	struct toks ts;
	if (parts.count != 2 || constant == 1 ||
	    !(wants(f, MUT_GUARD) || wants(f, MUT_RETURN)) || !tokens_of(f->tu, c, &ts))
		return true;
	if (ts.n > 3 && is(&ts.t[0], "if") && is(&ts.t[1], "(")) {
		size_t close = closing(&ts, 1);
		if (close < ts.n && close > 2 && wants(f, MUT_GUARD)) {
			char *cond = text_between(f->src, &ts, 2, close);
			add(f, MUT_GUARD, &ts.t[2], ts.t[2].start, ts.t[close - 1].end,
			    xstrdup("1"), xasprintf("if (%s) removed (made if (1))", cond));
			free(cond);
		}
		if (close + 1 < ts.n && close > 2)
			return_site(f, &ts, close);
	}
	toks_free(&ts);
	return true;
}

/* A for loop's step: halving made quartering (/= 2, / 2, >>= 1, >> 1), doubling made
 * tripling (*= 2, * 2, <<= 1, << 1). */
static void step_site(struct finder *f, CXCursor c)
{
	struct toks ts;
	if (!tokens_of(f->tu, c, &ts))
		return;
	size_t close = ts.n > 2 && is(&ts.t[0], "for") && is(&ts.t[1], "(") ? closing(&ts, 1)
									    : ts.n;
	size_t semis[2], nsemi = 0;
	int depth = 0;
	for (size_t i = 2; i < close && nsemi < 2; i++) {
		if (is(&ts.t[i], "(") || is(&ts.t[i], "["))
			depth++;
		else if ((is(&ts.t[i], ")") || is(&ts.t[i], "]")) && depth > 0)
			depth--;
		else if (depth == 0 && is(&ts.t[i], ";"))
			semis[nsemi++] = i;
	}
	size_t first = nsemi == 2 ? semis[1] + 1 : close, last = close; /* the step: [first, last) */
	if (close < ts.n && last >= first + 2) {
		const struct tok *op = &ts.t[last - 2], *n = &ts.t[last - 1];
		char *step = text_between(f->src, &ts, first, last);
		const char *by = NULL, *what = NULL;
		size_t s = n->start, e = n->end;
		if ((is(op, "/=") || is(op, "/")) && is(n, "2"))
			by = "4", what = "halving made quartering";
		else if ((is(op, ">>=") || is(op, ">>")) && is(n, "1"))
			by = "2", what = "halving made quartering";
		else if ((is(op, "*=") || is(op, "*")) && is(n, "2"))
			by = "3", what = "doubling made tripling";
		else if ((is(op, "<<=") || is(op, "<<")) && is(n, "1")) {
			/* no shift triples: the operator and its operand made * 3 */
			by = is(op, "<<=") ? "*= 3" : "* 3";
			what = "doubling made tripling";
			s = op->start;
		}
		if (by)
			add(f, MUT_STEP, &ts.t[first], s, e, xstrdup(by),
			    xasprintf("%s: %s", step, what));
		free(step);
	}
	toks_free(&ts);
}

/* Whether a function's tokens declare a kernel: kernel or __kernel before its parameters. */
static bool declares_kernel(const struct toks *ts)
{
	for (size_t i = 0; i < ts->n && !is(&ts->t[i], "("); i++)
		if (is(&ts->t[i], "kernel") || is(&ts->t[i], "__kernel"))
			return true;
	return false;
}

/* Whether the kernel fn is one the subject runs: any, where it names none. */
static bool runs_kernel(const struct finder *f, CXCursor fn)
{
	if (f->nkernels == 0)
		return true;
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(fn));
	bool runs = false;
	for (size_t k = 0; k < f->nkernels && !runs; k++)
		runs = strcmp(f->kernels[k], name) == 0;
	free(name);
	return runs;
}

/* Notes the function whose body the walk enters, whose tokens are ts (NULL where they are
 * not the file's own text): where it ends, whether it is a kernel, whose body may then be
 * emptied, and its global parameters. */
static void enter_function(struct finder *f, CXCursor fn, const struct toks *ts)
{
	f->in_kernel = ts && declares_kernel(ts);
	f->fn_end = ts ? ts->t[ts->n - 1].end : 0;
	note_globals(f, fn);
	if (f->in_kernel && wants(f, MUT_EMPTY))
		empty_site(f, fn, ts);
}

/* A function: another kernel of the file, which the subject never runs, is skipped whole;
 * a definition is entered. Tokenized once for both. */
static enum CXChildVisitResult function_site(struct finder *f, CXCursor fn)
{
	struct toks ts;
	bool own = tokens_of(f->tu, fn, &ts);
	if (own && declares_kernel(&ts) && !runs_kernel(f, fn)) {
		toks_free(&ts);
		return CXChildVisit_Continue;
	}
	if (clang_api.clang_isCursorDefinition(fn))
		enter_function(f, fn, own ? &ts : NULL);
	if (own)
		toks_free(&ts);
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct finder *f = data;
	if (!clang_api.clang_Location_isFromMainFile(clang_api.clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	switch (clang_api.clang_getCursorKind(c)) {
	case CXCursor_FunctionDecl:
		if (function_site(f, c) == CXChildVisit_Continue)
			return CXChildVisit_Continue;
		break;
	case CXCursor_CallExpr:
		call_sites(f, c);
		break;
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		if (wants(f, MUT_BOUND))
			bound_site(f, c);
		if (wants(f, MUT_WRITE) && f->in_kernel)
			write_site(f, c, parent);
		break;
	case CXCursor_ArraySubscriptExpr:
		if (wants(f, MUT_INDEX))
			index_site(f, c);
		break;
	case CXCursor_IfStmt:
		if (!guard_site(f, c))
			return CXChildVisit_Continue;
		break;
	case CXCursor_ForStmt:
		if (wants(f, MUT_STEP))
			step_site(f, c);
		break;
	default:
		break;
	}
	return CXChildVisit_Recurse;
}

static int by_place(const void *a, const void *b)
{
	const struct mutation *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

struct find_job {
	const char *path, *options;
	unsigned ops;
	char *const *kernels;
	size_t nkernels;
};

/* Tabs, newlines and backslashes in a field escaped, for the line protocol. */
static void put_field(struct strbuf *out, const char *text)
{
	for (const char *c = text; *c; c++)
		if (*c == '\t')
			strbuf_puts(out, "\\t");
		else if (*c == '\n')
			strbuf_puts(out, "\\n");
		else if (*c == '\\')
			strbuf_puts(out, "\\\\");
		else
			strbuf_append(out, c, 1);
}

static char *take_field(const char *text)
{
	struct strbuf out = { 0 };
	for (const char *c = text; *c; c++) {
		if (*c == '\\' && c[1]) {
			c++;
			strbuf_append(&out, *c == 't' ? "\t" : *c == 'n' ? "\n" : c, 1);
		} else {
			strbuf_append(&out, c, 1);
		}
	}
	char *s = strbuf_take(&out);
	return s ? s : xstrdup("");
}

/* In the child: the sites, a line each, "M op line col start end replacement what", or
 * clang's errors. */
static void find_in_child(void *ctx, struct strbuf *out)
{
	const struct find_job *job = ctx;
	struct diag_list diags = { 0 };
	size_t len;
	char *src;
	CXIndex index = clang_api.clang_createIndex(0, 0);
	CXTranslationUnit tu = clang_api_read(index, job->path, job->options, &src, &len, &diags);
	struct mutation_list found = { 0 };
	if (tu) {
		struct finder f = { .tu = tu,
				    .src = src,
				    .ops = job->ops,
				    .kernels = job->kernels,
				    .nkernels = job->nkernels,
				    .out = &found };
		if (job->ops & (1u << MUT_RETURN))
			clang_api.clang_visitChildren(clang_api.clang_getTranslationUnitCursor(tu),
						      find_barriers, &f);
		clang_api.clang_visitChildren(clang_api.clang_getTranslationUnitCursor(tu), visit,
					      &f);
		strings_free(f.globals, (long)f.nglobals);
		free(f.barriers);
		clang_api.clang_disposeTranslationUnit(tu);
	}
	clang_api.clang_disposeIndex(index);
	diag_list_send(out, &diags);
	for (size_t i = 0; i < found.count; i++) {
		const struct mutation *m = &found.items[i];
		strbuf_printf(out, "M\t%d\t%d\t%d\t%zu\t%zu\t", (int)m->op, m->line, m->col,
			      m->start, m->end);
		put_field(out, m->replacement);
		strbuf_puts(out, "\t");
		put_field(out, m->what);
		strbuf_puts(out, "\n");
	}
	mutation_list_free(&found);
	diag_list_free(&diags);
	free(src);
}

int mutsites_find(const char *path, const char *options, unsigned ops,
		  char *const *kernels, size_t nkernels, struct mutation_list *out,
		  struct diag_list *diags)
{
	*out = (struct mutation_list){ 0 };
	struct find_job job = { path, options ? options : "", ops, kernels, nkernels };
	bool ok;
	char *why;
	char *text = clang_api_in_child(find_in_child, &job, &ok, &why);
	size_t errors = 0;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *rest = line;
		char *tag = next_tab_field(&rest);
		if (strcmp(tag, "E") == 0) {
			diag_take_sent(diags, path, rest);
			errors++;
		} else if (strcmp(tag, "M") == 0) {
			struct mutation m = { 0 };
			int op = atoi(next_tab_field(&rest));
			m.op = op >= 0 && op < MUT_OPERATORS ? (enum mut_operator)op : MUT_BARRIER;
			m.line = atoi(next_tab_field(&rest));
			m.col = atoi(next_tab_field(&rest));
			m.start = strtoul(next_tab_field(&rest), NULL, 10);
			m.end = strtoul(next_tab_field(&rest), NULL, 10);
			m.replacement = take_field(next_tab_field(&rest));
			m.what = take_field(next_tab_field(&rest));
			out->items = xreallocarray(out->items, out->count + 1, sizeof *out->items);
			out->items[out->count++] = m;
		}
	}
	free(text);
	if (!ok) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "clang stopped reading it: %s", why);
		errors++;
	}
	free(why);
	if (errors > 0) {
		mutation_list_free(out);
		return -1;
	}
	qsort(out->items, out->count, sizeof *out->items, by_place);
	return 0;
}

#endif
