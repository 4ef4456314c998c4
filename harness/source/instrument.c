/* instrument.c - a program's source rewritten for racecheck (instrument.h).
 *
 * libclang reads the program; each function of the kernel file becomes a tree of the
 * nodes its body holds, and the rewrite is a list of edits over the file's text, each a
 * range replaced by literal text around holes that are ranges of the original rendered
 * again (so an access inside another's subscript is wrapped inside the wrapping of the
 * outer). No edit adds a line: every site keeps its line, and the runtime, prepended,
 * ends with a #line that restores the numbering. */
#include "config.h"

#include "source/instrument.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/shadowrt.h"

#ifdef HAVE_LIBCLANG

#include "source/clangapi.h"
#include "source/srctree.h"
#include "source/uniform.h"

bool instrument_available(void)
{
	return clang_api_available();
}

/* A piece of an edit: literal text, or a range of the file rendered with its own edits. */
struct piece {
	char *text; /* NULL: the hole [from, to) */
	unsigned from, to;
};

struct edit {
	unsigned start, end;
	struct piece *pieces;
	size_t npieces;
	size_t order; /* ties keep the order they were made in */
};

struct rewriter {
	CXTranslationUnit tu;
	CXFile file;
	const char *path;
	struct srctext text; /* the file's bytes */
	struct edit *edits;
	size_t nedits;
	struct strbuf sites; /* "S" lines */
	unsigned nsites;     /* site 0 is "none" */
	/* Barrier calls given a site so far, by offset: a branch that guards one names its
	 * site before the call itself is visited. */
	unsigned *barrier_at, *barrier_site;
	size_t nbarriers;
	struct strbuf kernels, gaps;
	unsigned min_access; /* bytes of the smallest access, for the granule */
	/* Non-kernel functions the file defines: their calls pass the context on. */
	char **helpers;
	size_t nhelpers;
	char **kernel_names;
	size_t nkernel_names;
	/* Typed stores made so far, "space\ttype" a line, their helpers' numbers by order. */
	char **stores;
	size_t nstores;
	size_t nvector_io;	  /* helpers of builtins that touch memory (vector loads and stores,
				     async copies), numbered in order */
	struct strbuf store_defs; /* helpers made since the last function began */
	size_t max_global, max_local;
	/* The function being rewritten. */
	struct node *fn_root;
	struct uniform *uniform; /* its expressions one value across a group */
	bool in_kernel;
	CXCursor *params; /* a kernel's parameters, and its region index each (-1: none) */
	int *param_region;
	size_t nparams;
	CXCursor *local_vars; /* a kernel's local arrays, region index nlocal_params + i */
	size_t nlocal_vars, nlocal_params;
	struct strbuf local_sizes; /* their bytes, comma-separated */
};

static void add_edit(struct rewriter *rw, unsigned start, unsigned end, struct piece *pieces,
		     size_t npieces)
{
	rw->edits = xreallocarray(rw->edits, rw->nedits + 1, sizeof *rw->edits);
	rw->edits[rw->nedits] = (struct edit){ start, end, pieces, npieces, rw->nedits };
	rw->nedits++;
}

static struct piece lit(char *text)
{
	return (struct piece){ .text = text };
}

static struct piece hole(unsigned from, unsigned to)
{
	return (struct piece){ .from = from, .to = to };
}

/* An edit of pieces given as a list ending with a piece of from == to == ~0u. */
static void edit_of(struct rewriter *rw, unsigned start, unsigned end, const struct piece *list)
{
	size_t n = 0;
	while (list[n].text || list[n].from != ~0u)
		n++;
	struct piece *pieces = xcalloc(n ? n : 1, sizeof *pieces);
	memcpy(pieces, list, n * sizeof *pieces);
	add_edit(rw, start, end, pieces, n);
}

#define END_PIECES ((struct piece){ .from = ~0u, .to = ~0u })

static void insert(struct rewriter *rw, unsigned at, char *text)
{
	edit_of(rw, at, at, (struct piece[]){ lit(text), END_PIECES });
}

static int by_range(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	bool xz = x->start == x->end, yz = y->start == y->end;
	if (xz != yz)
		return xz ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void render(const struct rewriter *rw, unsigned from, unsigned to, const struct edit *self,
		   struct strbuf *out);

static void render_edit(const struct rewriter *rw, const struct edit *e, struct strbuf *out)
{
	for (size_t i = 0; i < e->npieces; i++) {
		const struct piece *p = &e->pieces[i];
		if (p->text)
			strbuf_puts(out, p->text);
		else
			render(rw, p->from, p->to, e, out);
	}
}

/* The text [from, to) of the file with the edits inside it applied, outer ones first;
 * `self` is the edit whose hole this is, which does not apply again. */
static void render(const struct rewriter *rw, unsigned from, unsigned to, const struct edit *self,
		   struct strbuf *out)
{
	unsigned pos = from;
	for (size_t i = 0; i < rw->nedits; i++) {
		const struct edit *e = &rw->edits[i];
		/* An insertion where a hole ends belongs after the hole's text, outside it. */
		if (e == self || e->start < pos || e->end > to ||
		    (e->start == e->end && e->start == to && to > from && self))
			continue;
		strbuf_append(out, rw->text.src + pos, e->start - pos);
		render_edit(rw, e, out);
		pos = e->end;
	}
	strbuf_append(out, rw->text.src + pos, to - pos);
}

/* Where a location is in the kernel file, where a macro's text counts as its use's:
 * false where it is not the file's own text (a macro's expansion, or another file). */
static bool file_offset(const struct rewriter *rw, CXSourceLocation loc, unsigned *offset)
{
	CXFile sfile, efile;
	unsigned soff, eoff;
	clang_api.clang_getSpellingLocation(loc, &sfile, NULL, NULL, &soff);
	clang_api.clang_getExpansionLocation(loc, &efile, NULL, NULL, &eoff);
	*offset = eoff;
	return sfile && efile && clang_api.clang_Location_isFromMainFile(loc) && soff == eoff;
}

/* Whether text [from, to) can be the whole of a node of `kind` written in a macro's
 * argument: no comma outside brackets (the text runs on into the next argument, the
 * node's end being the macro body's), and a subscript ends at its ']'. */
static bool one_argument(const struct rewriter *rw, enum CXCursorKind kind, unsigned from,
			 unsigned to)
{
	int depth = 0;
	for (unsigned i = from; i < to; i++) {
		char c = rw->text.src[i];
		depth += (c == '(' || c == '[') - (c == ')' || c == ']');
		if ((c == ',' && depth == 0) || depth < 0)
			return false;
	}
	return depth == 0 &&
	       (kind != CXCursor_ArraySubscriptExpr || (to > from && rw->text.src[to - 1] == ']'));
}

/* Where a location is spelled, where that is the kernel file. */
static bool spelled_in_file(const struct rewriter *rw, CXSourceLocation loc, unsigned *offset)
{
	CXFile file;
	clang_api.clang_getSpellingLocation(loc, &file, NULL, NULL, offset);
	if (file == NULL)
		return false;
	char *name = clang_api_text(clang_api.clang_getFileName(file));
	bool ours = strcmp(name, rw->path) == 0;
	free(name);
	return ours;
}

static void line_col(const struct rewriter *rw, unsigned offset, int *line, int *col)
{
	int l = 1, c = 1;
	for (unsigned i = 0; i < offset && i < rw->text.len; i++) {
		if (rw->text.src[i] == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static enum CXChildVisitResult grow(CXCursor c, CXCursor parent, CXClientData data);

static bool is_access_kind(enum CXCursorKind k)
{
	return k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator ||
	       k == CXCursor_MemberRefExpr;
}


static struct node *node_new(struct rewriter *rw, CXCursor c, struct node *parent)
{
	struct node *n = xcalloc(1, sizeof *n);
	n->cursor = c;
	n->kind = clang_api.clang_getCursorKind(c);
	n->parent = parent;
	CXSourceRange range = clang_api.clang_getCursorExtent(c);
	unsigned s, e;
	bool a = file_offset(rw, clang_api.clang_getRangeStart(range), &s);
	bool b = file_offset(rw, clang_api.clang_getRangeEnd(range), &e);
	n->own_text = a && b && s <= e && e <= rw->text.len;
	n->start = s;
	n->end = e;
	/* A macro's argument (as_float(p[i])) is the file's own text where it is written:
	 * rewritten there, it is what the macro expands. What a #define's body spells is
	 * not, as it comes before the use it expands at. */
	unsigned ss, se;
	if (!n->own_text && spelled_in_file(rw, clang_api.clang_getRangeStart(range), &ss) &&
	    spelled_in_file(rw, clang_api.clang_getRangeEnd(range), &se) && ss <= se &&
	    se <= rw->text.len && ss >= s && one_argument(rw, n->kind, ss, se)) {
		n->own_text = true;
		n->start = ss;
		n->end = se;
	}
	CXType t = clang_api.clang_getCursorType(c);
	n->type = clang_api_text(clang_api.clang_getTypeSpelling(t));
	/* Sizes only of what may be accessed or declared: libclang 14 asks the size of a
	 * builtin's function type (__builtin_unreachable) into a crash. */
	bool sized = is_access_kind(n->kind) || n->kind == CXCursor_VarDecl;
	n->size = sized && t.kind != CXType_Invalid ? clang_api.clang_Type_getSizeOf(t) : -1;
	clang_api.clang_visitChildren(c, grow, n);
	return n;
}

static void node_free(struct node *n)
{
	if (n == NULL)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n->type);
	free(n);
}

/* The rewriter the tree is grown for: libclang's visitor hands grow() one pointer, the
 * parent node, and the child process rewrites one file at a time. */
static struct rewriter *growing_rw;

/* Adds child c, with its own children, to the node `data`. */
static enum CXChildVisitResult grow(CXCursor c, CXCursor parent, CXClientData data)
{
	struct node *n = data;
	struct node *kid = node_new(growing_rw, c, n);
	n->kids = xreallocarray(n->kids, n->nkids + 1, sizeof *n->kids);
	n->kids[n->nkids++] = kid;
	return CXChildVisit_Continue;
}

/* The memory space an object of a type lives in: after the last '*' for a pointer (the
 * pointer's own), else anywhere in the spelling; 0 for private memory or an array. */
static char object_space(const char *type)
{
	if (strchr(type, '[') || strchr(type, '('))
		return 0;
	const char *own = strrchr(type, '*');
	own = own ? own + 1 : type;
	if (strstr(own, "__global"))
		return 'g';
	if (strstr(own, "__local"))
		return 'l';
	if (strstr(own, "__constant"))
		return 'c';
	return 0;
}

/* A type's spelling without its memory space and qualifiers: the value type of a store. */
static char *value_type(const char *type)
{
	static const char *const drop[] = { "__global", "__local", "__constant", "const",
					     "volatile", "__private" };
	struct strbuf out = { 0 };
	char *copy = xstrdup(type);
	for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		bool skip = false;
		for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
			skip |= strcmp(w, drop[i]) == 0;
		if (!skip)
			strbuf_printf(&out, "%s%s", out.len ? " " : "", w);
	}
	free(copy);
	char *s = strbuf_take(&out);
	return s ? s : xstrdup("");
}

static const char *space_word(char space)
{
	return space == 'g' ? "__global" : space == 'l' ? "__local" : "__constant";
}

static char runtime_letter(char space)
{
	return space == 'g' ? 'g' : space == 'l' ? 'l' : 'k';
}

static unsigned add_site(struct rewriter *rw, unsigned offset, char access, char space)
{
	int line, col;
	line_col(rw, offset, &line, &col);
	rw->nsites++;
	strbuf_printf(&rw->sites, "S\t%d\t%d\t%c\t%c\n", line, col, access, space ? space : '-');
	return rw->nsites;
}

/* The site of the barrier call at `offset`, added the first time it is asked for. */
static unsigned barrier_site(struct rewriter *rw, unsigned offset)
{
	for (size_t i = 0; i < rw->nbarriers; i++)
		if (rw->barrier_at[i] == offset)
			return rw->barrier_site[i];
	rw->barrier_at = xreallocarray(rw->barrier_at, rw->nbarriers + 1, sizeof *rw->barrier_at);
	rw->barrier_site =
		xreallocarray(rw->barrier_site, rw->nbarriers + 1, sizeof *rw->barrier_site);
	rw->barrier_at[rw->nbarriers] = offset;
	return rw->barrier_site[rw->nbarriers++] = add_site(rw, offset, 'b', 0);
}

static void add_gap(struct rewriter *rw, unsigned offset, const char *why)
{
	int line, col;
	line_col(rw, offset, &line, &col);
	strbuf_printf(&rw->gaps, "U\t%d\t%d\t%s\n", line, col, why);
}

/* The region a pointer expression points into, where the text shows it: the kernel
 * parameter or local array it is made from; -1 where it is found at run time. */
static int region_of(const struct rewriter *rw, struct node *n)
{
	n = srctree_unwrapped(n);
	while (n && (n->kind == CXCursor_ArraySubscriptExpr || n->kind == CXCursor_MemberRefExpr ||
		     (n->kind == CXCursor_UnaryOperator && n->nkids == 1)) &&
	       n->nkids >= 1)
		n = srctree_unwrapped(n->kids[0]);
	if (n == NULL || n->kind != CXCursor_DeclRefExpr || !rw->in_kernel)
		return -1;
	CXCursor to = clang_api.clang_getCursorReferenced(n->cursor);
	for (size_t i = 0; i < rw->nparams; i++)
		if (clang_api.clang_equalCursors(to, rw->params[i]))
			return rw->param_region[i];
	for (size_t i = 0; i < rw->nlocal_vars; i++)
		if (clang_api.clang_equalCursors(to, rw->local_vars[i]))
			return (int)(rw->nlocal_params + i);
	return -1;
}

/* Whether n is an lvalue of memory the runtime tracks, by its kind and type. */
static char access_space(const struct rewriter *rw, const struct node *n)
{
	if (!is_access_kind(n->kind))
		return 0;
	char space = object_space(n->type);
	if (space == 0)
		return 0;
	if (n->kind == CXCursor_UnaryOperator) {
		char *op = srctree_operator(&rw->text, n);
		bool deref = strcmp(op, "*") == 0;
		free(op);
		if (!deref)
			return 0;
	}
	return space;
}

/* Whether n is in an operand clang does not evaluate: sizeof, vec_step, alignof. */
static bool unevaluated(const struct node *n)
{
	for (const struct node *p = n->parent; p; p = p->parent)
		if (p->kind == CXCursor_UnaryExpr)
			return true;
	return false;
}

/* How n's value is used: 'r' read, 'w' written by `=` (parent the assignment), 'u' read
 * and written, 0 not at all (its address is taken, or it is a struct whose member is the
 * access). */
/* Where operator node n's operator begins, past blanks and parentheses. */
static unsigned operator_at(const struct rewriter *rw, const struct node *n)
{
	unsigned from = n->nkids == 2					? n->kids[0]->end
			: n->nkids == 1 && n->kids[0]->start > n->start ? n->start
			: n->nkids == 1					? n->kids[0]->end
									: n->start;
	while (from < n->end && from < rw->text.len && strchr(" \t\n()", rw->text.src[from]))
		from++;
	return from;
}

/* How n is used: 'r' read, 'w' written, 'u' read and written (x += 1, x++), 0 not
 * accessed (&x, s.f). A written access's *written_at is its operator's offset, where
 * clang's debug locations, and so the simulator's findings, put the store. */
static char usage(const struct rewriter *rw, struct node *n, struct node **assignment,
		  unsigned *written_at)
{
	struct node *child = n;
	struct node *p = n->parent;
	*assignment = NULL;
	*written_at = n->start;
	for (;;) {
		if (p == NULL)
			return 'r';
		if (p->kind == CXCursor_ParenExpr) {
			child = p;
			p = p->parent;
			continue;
		}
		/* A vector's component (v[i].x): the whole vector is what is tracked, used as
		 * the component is. */
		if (p->kind == CXCursor_UnexposedExpr && object_space(p->type) != 0 && p->nkids == 1) {
			child = p;
			p = p->parent;
			continue;
		}
		break;
	}
	/* s.f: the member (or an element of it) is the access, not the whole struct. */
	if (p->kind == CXCursor_MemberRefExpr && p->nkids == 1 && p->kids[0] == child)
		return 0;
	if (p->kind == CXCursor_UnaryOperator) {
		char *op = srctree_operator(&rw->text, p);
		char use = strcmp(op, "&") == 0 ? 0
			   : strcmp(op, "++") == 0 || strcmp(op, "--") == 0 ? 'u'
									  : 'r';
		free(op);
		if (use == 'u')
			*written_at = operator_at(rw, p);
		return use;
	}
	if ((p->kind == CXCursor_BinaryOperator || p->kind == CXCursor_CompoundAssignOperator) &&
	    p->nkids == 2 && p->kids[0] == child) {
		char *op = srctree_operator(&rw->text, p);
		char use = 'r';
		if (strcmp(op, "=") == 0) {
			use = 'w';
			*assignment = child == n ? p : NULL;
		} else if (p->kind == CXCursor_CompoundAssignOperator) {
			use = 'u';
		}
		free(op);
		if (use != 'r')
			*written_at = operator_at(rw, p);
		return use;
	}
	return 'r';
}

/* Whether the address access n makes comes through a cast of a pointer, the one way an
 * OpenCL C access can be off its type's alignment: its pointer, through parentheses,
 * pointer arithmetic and the lvalue a member or element is of, is a cast's. */
static bool through_cast(struct node *n)
{
	while (n && n->nkids >= 1 &&
	       (n->kind == CXCursor_ArraySubscriptExpr || n->kind == CXCursor_MemberRefExpr ||
		n->kind == CXCursor_UnaryOperator)) {
		n = srctree_unwrapped(n->kids[0]);
		while (n && n->kind == CXCursor_BinaryOperator && n->nkids == 2)
			n = srctree_unwrapped(strchr(n->kids[0]->type, '*') ? n->kids[0]
									    : n->kids[1]);
		if (n && n->kind == CXCursor_CStyleCastExpr)
			return strchr(n->type, '*') != NULL;
	}
	return false;
}

/* log2 of the alignment an access through a cast pointer is held to (its type's), or 0:
 * where no cast made the pointer, the compiler's own types keep it aligned. */
static unsigned cast_alignment(struct node *n)
{
	if (!through_cast(n))
		return 0;
	long long align = clang_api.clang_Type_getAlignOf(clang_api.clang_getCursorType(n->cursor));
	unsigned log2 = 0;
	while (align > 1 && (1LL << (log2 + 1)) <= align && log2 < 7)
		log2++;
	return log2;
}

/* How a call of the runtime's check of an access opens after its space's letter: with
 * the alignment (log2) it holds the address to ("a(__rc, 2, "), as the bytes of some of a
 * vector's components ("p(__rc, "), or plain ("(__rc, "). The caller frees it. */
static char *check_opening(unsigned align, bool part)
{
	return align  ? xasprintf("a(__rc, %u, ", align)
	       : part ? xstrdup("p(__rc, ")
		      : xstrdup("(__rc, ");
}

/* The number of the helper that stores a `type` in `space` with the value's hash, made on
 * first use and defined before the function being rewritten; an alignment (log2, 0 for
 * none) holds the address to it. */
static size_t store_helper(struct rewriter *rw, char space, const char *type, unsigned align)
{
	char *key = xasprintf("%c\t%s\t%u", space, type, align);
	for (size_t i = 0; i < rw->nstores; i++)
		if (strcmp(rw->stores[i], key) == 0) {
			free(key);
			return i;
		}
	rw->stores = xreallocarray(rw->stores, rw->nstores + 1, sizeof *rw->stores);
	rw->stores[rw->nstores] = key;
	char *value = value_type(type);
	const char *word = space_word(space);
	char *check = check_opening(align, false);
	strbuf_printf(&rw->store_defs,
		      "%s __rc_st%zu(__rc_ctx *__rc, %s *p, %s v, uint site, int region) { "
		      "uint h = __rc_hash((__private uchar *)&v, sizeof v); "
		      "p = (%s *)__rc_%c%s(%s void *)p, sizeof v, site, __RC_W, region, h); "
		      "*p = v; return v; } ",
		      value, rw->nstores, type, value, type, runtime_letter(space), check, word);
	free(check);
	free(value);
	return rw->nstores++;
}

static void note_size(struct rewriter *rw, long long size)
{
	if (size > 0 && (unsigned long long)size < rw->min_access)
		rw->min_access = (unsigned)size;
}

/* The components of vector access n a selector after it names (v[i].x, v[i].s3,
 * v[i].lo, v[i].xy): the bytes from the first to the last, *off bytes into the vector and
 * *len long, as the simulator, which tracks bytes, sees them. False where n is no vector,
 * or no selector follows it, or one this does not read. */
static bool component_span(const struct rewriter *rw, struct node *n, unsigned *off, unsigned *len)
{
	struct node *child = n, *p = n->parent;
	while (p && p->kind == CXCursor_ParenExpr) {
		child = p;
		p = p->parent;
	}
	/* libclang shows a vector's element access as an unexposed lvalue of the
	 * component's type, in the vector's space. */
	if (p == NULL || p->kind != CXCursor_UnexposedExpr || p->nkids != 1 ||
	    object_space(p->type) == 0 || !p->own_text || p->end <= child->end)
		return false;
	CXType vector = clang_api.clang_getCanonicalType(clang_api.clang_getCursorType(n->cursor));
	if (vector.kind != CXType_ExtVector && vector.kind != CXType_Vector)
		return false;
	long long lanes = clang_api.clang_getNumElements(vector);
	long long esize = clang_api.clang_Type_getSizeOf(clang_api.clang_getElementType(vector));
	if (lanes <= 0 || esize <= 0)
		return false;
	const char *sel = rw->text.src + child->end, *end = rw->text.src + p->end;
	while (sel < end && strchr(" \t\n.", *sel))
		sel++;
	size_t slen = (size_t)(end - sel);
	long long room = lanes == 3 ? 4 : lanes, first = -1, last = -1;
	if (slen == 2 && strncmp(sel, "lo", 2) == 0) {
		first = 0;
		last = room / 2 - 1;
	} else if (slen == 2 && strncmp(sel, "hi", 2) == 0) {
		first = room / 2;
		last = room - 1;
	} else if (slen == 4 && strncmp(sel, "even", 4) == 0) {
		first = 0;
		last = room - 2;
	} else if (slen == 3 && strncmp(sel, "odd", 3) == 0) {
		first = 1;
		last = room - 1;
	} else {
		bool numbered = slen > 1 && (sel[0] == 's' || sel[0] == 'S');
		const char *names = numbered ? "0123456789abcdef" : "xyzw";
		for (size_t i = numbered ? 1 : 0; i < slen; i++) {
			const char *at =
				sel[i] ? strchr(names, numbered ? sel[i] | 0x20 : sel[i]) : NULL;
			if (at == NULL)
				return false;
			long long lane = at - names;
			first = first < 0 || lane < first ? lane : first;
			last = lane > last ? lane : last;
		}
	}
	if (first < 0 || last < first || (last + 1) * esize > n->size)
		return false;
	*off = (unsigned)(first * esize);
	*len = (unsigned)((last - first + 1) * esize);
	return true;
}

/* Wraps access n: its address goes through the runtime, which checks it and hands back
 * where to access (a sink, for an access outside every buffer). */
static void wrap_access(struct rewriter *rw, struct node *n, char space)
{
	struct node *assignment;
	unsigned written_at;
	char use = usage(rw, n, &assignment, &written_at);
	if (use == 0)
		return;
	if (!n->own_text) {
		add_gap(rw, n->start, "an access written through a macro");
		return;
	}
	if (n->size <= 0) {
		add_gap(rw, n->start, "an access of a type of no known size");
		return;
	}
	int region = region_of(rw, n);
	unsigned align = cast_alignment(n), part_off = 0, part_len = 0;
	/* A write of some of a vector's components writes their bytes alone; a read loads
	 * the vector whole, as the simulator sees both (clang's code for them). */
	bool part = use == 'w' && align == 0 && assignment == NULL &&
		    component_span(rw, n, &part_off, &part_len);
	note_size(rw, part ? part_len : n->size);
	char access = use == 'w' ? 'w' : use == 'u' ? 'u' : 'r';
	if (space == 'c')
		access = 'r';
	unsigned site = add_site(rw, access == 'r' ? n->start : written_at, access, space);
	const char *kind = access == 'w' ? "__RC_W" : access == 'u' ? "__RC_U" : "__RC_R";
	bool named = strchr(n->type, '(') == NULL;
	if (assignment && named && space != 'c' && assignment->kids[1]->own_text) {
		size_t helper = store_helper(rw, space, n->type, align);
		edit_of(rw, assignment->start, assignment->end,
			(struct piece[]){ lit(xasprintf("__rc_st%zu(__rc, &(", helper)),
					  hole(n->start, n->end), lit(xstrdup("), ")),
					  hole(assignment->kids[1]->start, assignment->kids[1]->end),
					  lit(xasprintf(", %u, %d)", site, region)), END_PIECES });
		return;
	}
	if (!named) {
		add_gap(rw, n->start, "an access of a type with no name to cast to");
		return;
	}
	const char *word = space_word(space);
	char *check = check_opening(align, part);
	/* A vector's components are checked as the bytes they take, the vector's address
	 * handed back. */
	char *size = part ? xasprintf("%u, %u", part_off, part_len) : xasprintf("%lld", n->size);
	edit_of(rw, n->start, n->end,
		(struct piece[]){
			lit(xasprintf("(*(%s *)__rc_%c%s(%s void *)&(", n->type,
				      runtime_letter(space), check, word)),
			hole(n->start, n->end),
			lit(xasprintf("), %s, %u, %s, %d, 0))", size, site, kind, region)),
			END_PIECES });
	free(check);
	free(size);
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The call's arguments: its kids after the callee. */
static size_t call_arguments(const struct node *call, struct node ***args)
{
	*args = call->nkids > 1 ? call->kids + 1 : NULL;
	return call->nkids > 1 ? call->nkids - 1 : 0;
}

static bool is_atomic_function(const char *name)
{
	return starts_with(name, "atomic_") || starts_with(name, "atom_");
}

/* What pointer argument p points at: its space ('g', 'l', 'c', or 0 for none of them),
 * its size in *size, and its type as clang spells it in *text where text is not NULL
 * (the caller frees it). */
static char pointee_of(struct node *p, long long *size, char **text)
{
	CXType pointee = clang_api.clang_getPointeeType(clang_api.clang_getCursorType(p->cursor));
	char *spelled = clang_api_text(clang_api.clang_getTypeSpelling(pointee));
	char space = object_space(spelled);
	*size = clang_api.clang_Type_getSizeOf(pointee);
	if (text)
		*text = spelled;
	else
		free(spelled);
	return space;
}

/* An atomic call on tracked memory: its pointer goes through the runtime as an atomic
 * access. */
static void wrap_atomic(struct rewriter *rw, struct node *call)
{
	struct node **args;
	if (call_arguments(call, &args) == 0)
		return;
	struct node *ptr = args[0];
	long long size;
	char space = pointee_of(ptr, &size, NULL);
	if (space == 0 || space == 'c' || size <= 0)
		return;
	if (!ptr->own_text || !call->own_text) {
		add_gap(rw, call->start, "an atomic written through a macro");
		return;
	}
	note_size(rw, size);
	unsigned site = add_site(rw, call->start, 'a', space);
	const char *word = space_word(space);
	edit_of(rw, ptr->start, ptr->end,
		(struct piece[]){ lit(xasprintf("((%s)__rc_%c(__rc, (%s void *)(", ptr->type,
						runtime_letter(space), word)),
				  hole(ptr->start, ptr->end),
				  lit(xasprintf("), %lld, %u, __RC_A, %d, 0))", size, site,
						region_of(rw, ptr))),
				  END_PIECES });
}

/* What a vector load or store builtin accesses: vloadN(off, p) reads N elements at
 * p + N * off, vstoreN(v, off, p) writes them; vload_halfN and vstore_halfN (with a
 * rounding suffix or none) the same of halves, N 1 where it is left out. Returns the
 * access ('r' or 'w') with *lanes, or 0 for any other call, and for the aligned forms
 * (vloada_half), whose 3-vectors take 4 elements' room. */
static char vector_io(const char *name, unsigned *lanes)
{
	char access = starts_with(name, "vstore") ? 'w' : starts_with(name, "vload") ? 'r' : 0;
	if (access == 0 || starts_with(name, "vloada") || starts_with(name, "vstorea"))
		return 0;
	const char *rest = name + (access == 'w' ? 6 : 5);
	bool half = starts_with(rest, "_half");
	if (half)
		rest += 5;
	char *end;
	unsigned long n = strtoul(rest, &end, 10);
	if (end == rest)
		n = half ? 1 : 0;
	static const char *const roundings[] = { "", "_rte", "_rtz", "_rtp", "_rtn" };
	bool rounding = false;
	for (size_t i = 0; i < sizeof roundings / sizeof roundings[0]; i++)
		rounding |= strcmp(end, roundings[i]) == 0 && (half || i == 0);
	if (!rounding || !(n == 1 || n == 2 || n == 3 || n == 4 || n == 8 || n == 16) ||
	    (n == 1 && !half))
		return 0;
	*lanes = (unsigned)n;
	return access;
}

/* Where the arguments of a call to `name` open: the '(' after the name as the file spells
 * them, or 0 where a macro spells the call (its name, parentheses or extent are not the
 * file's own). */
static unsigned call_opening(const struct rewriter *rw, const struct node *call, const char *name)
{
	size_t len = strlen(name);
	unsigned open = call->start + (unsigned)len;
	while (open < call->end && strchr(" \t\n", rw->text.src[open]))
		open++;
	if (!call->own_text || call->end == 0 || call->end > rw->text.len ||
	    strncmp(rw->text.src + call->start, name, len) != 0 || open >= call->end ||
	    rw->text.src[open] != '(' || rw->text.src[call->end - 1] != ')')
		return 0;
	return open;
}

/* Sends a call to `name`, whose arguments open at `open`, to helper __rc_vio<helper>: the
 * context goes first, `last` (taken) after its own arguments, which stay as written. */
static void call_helper(struct rewriter *rw, struct node *call, const char *name, unsigned open,
			size_t helper, char *last)
{
	edit_of(rw, call->start, call->start + (unsigned)strlen(name),
		(struct piece[]){ lit(xasprintf("__rc_vio%zu", helper)), END_PIECES });
	insert(rw, open + 1, xstrdup("__rc, "));
	insert(rw, call->end - 1, last);
}

/* A vector load or store builtin on tracked memory: the call goes through a helper that
 * checks the N elements it touches, then makes the call at offset 0 of the checked
 * address, so that each argument is still evaluated once, where it is written. */
static void wrap_vector_io(struct rewriter *rw, struct node *call, const char *name, char access,
			   unsigned lanes)
{
	struct node **args;
	size_t nargs = call_arguments(call, &args);
	if (nargs != (access == 'w' ? 3u : 2u))
		return;
	struct node *ptr = args[nargs - 1];
	long long size;
	char *pointee_text;
	char space = pointee_of(ptr, &size, &pointee_text);
	if (space == 0 || size <= 0) {
		free(pointee_text);
		return;
	}
	unsigned open = call_opening(rw, call, name);
	if (open == 0 || !ptr->own_text) {
		add_gap(rw, call->start, "a vector load or store written through a macro");
		free(pointee_text);
		return;
	}
	note_size(rw, size);
	unsigned site = add_site(rw, call->start, space == 'c' ? 'r' : access, space);
	const char *word = space_word(space);
	size_t helper = rw->nvector_io++;
	/* The value's type, as OpenCL C spells it: float4 for vload4 of floats, float for
	 * vload_half (clang's own spelling, an ext_vector_type attribute, declares nothing
	 * in a return type). */
	char *element = value_type(pointee_text);
	bool half = strstr(name, "_half") != NULL;
	char *value = lanes > 1 ? xasprintf("%s%u", half ? "float" : element, lanes)
				: xstrdup(half ? "float" : element);
	free(element);
	struct strbuf def = { 0 };
	strbuf_printf(&def, "%s __rc_vio%zu(__rc_ctx *__rc, ", access == 'w' ? "void" : value,
		      helper);
	if (access == 'w')
		strbuf_printf(&def, "%s v, ", value);
	free(value);
	strbuf_printf(&def,
		      "size_t off, %s p, uint site, int region) { p = (%s)__rc_%c(__rc, (%s void "
		      "*)(p + %u * off), %lld, site, %s, region, 0); %s%s(%s0, p); } ",
		      ptr->type, ptr->type, runtime_letter(space), word, lanes, lanes * size,
		      access == 'w' ? "__RC_W" : "__RC_R", access == 'w' ? "" : "return ", name,
		      access == 'w' ? "v, " : "");
	strbuf_puts(&rw->store_defs, def.data);
	strbuf_free(&def);
	free(pointee_text);
	/* The call's own text stays, arguments and all (an argument's extent may stop short
	 * of its last parenthesis, as a vector literal's does): its name is the helper's,
	 * the context goes first and the site and region last. */
	call_helper(rw, call, name, open, helper, xasprintf(", %u, %d", site, region_of(rw, ptr)));
}

/* The pointer argument p of an async copy: its space ('g' or 'l') and its element's size
 * in *size, or space 0. */
static char copy_operand(struct node *p, long long *size)
{
	char space = pointee_of(p, size, NULL);
	return (space == 'g' || space == 'l') && *size > 0 ? space : 0;
}

/* An async copy (async_work_group_copy, async_work_group_strided_copy): the call goes
 * through a helper that checks each element it reads and writes, as the work-group's
 * accesses, at the call's line, then makes the call with its arguments as written. The
 * stride is the global side's. */
static void wrap_async_copy(struct rewriter *rw, struct node *call, const char *name)
{
	bool strided = strcmp(name, "async_work_group_strided_copy") == 0;
	struct node **args;
	if (call_arguments(call, &args) != (strided ? 5u : 4u))
		return;
	long long dsize, ssize;
	char dspace = copy_operand(args[0], &dsize), sspace = copy_operand(args[1], &ssize);
	if (dspace == 0 || sspace == 0 || dspace == sspace || dsize != ssize)
		return;
	unsigned open = call_opening(rw, call, name);
	if (open == 0) {
		add_gap(rw, call->start, "an async copy written through a macro");
		return;
	}
	note_size(rw, dsize);
	unsigned site = add_site(rw, call->start, 'c', dspace);
	size_t helper = rw->nvector_io++;
	const char *dstride = dspace == 'g' && strided ? "stride" : "1";
	const char *sstride = sspace == 'g' && strided ? "stride" : "1";
	struct strbuf def = { 0 };
	strbuf_printf(&def,
		      "event_t __rc_vio%zu(__rc_ctx *__rc, %s d, %s s, size_t n, %sevent_t e, "
		      "uint site, int dregion, int sregion) { uint at = __rc_copy_start(__rc); "
		      "for (size_t i = at; i < n; i += __rc->grp->wg) { __rc_%c(__rc, (%s void "
		      "*)(s + i * %s), %lld, site, __RC_R, sregion, 0); __rc_%c(__rc, (%s void "
		      "*)(d + i * %s), %lld, site, __RC_W, dregion, 0); } __rc_copy_end(__rc, "
		      "at); return %s(d, s, n, %se); } ",
		      helper, args[0]->type, args[1]->type, strided ? "size_t stride, " : "",
		      runtime_letter(sspace), space_word(sspace), sstride, ssize,
		      runtime_letter(dspace), space_word(dspace), dstride, dsize, name,
		      strided ? "stride, " : "");
	strbuf_puts(&rw->store_defs, def.data);
	strbuf_free(&def);
	call_helper(
		rw, call, name, open, helper,
		xasprintf(", %u, %d, %d", site, region_of(rw, args[0]), region_of(rw, args[1])));
}

/* A wait for async copies: a barrier with both fences, as the simulator makes it, which
 * the copies it waits for are done by. A barrier of the device's own follows, so that
 * every item has counted itself in before any looks. */
static void wrap_wait(struct rewriter *rw, struct node *call)
{
	if (!call->own_text || call->end == 0) {
		add_gap(rw, call->start, "a wait for async copies written through a macro");
		return;
	}
	unsigned site = barrier_site(rw, call->start);
	const char *both = "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE";
	edit_of(rw, call->start, call->end,
		(struct piece[]){
			lit(xasprintf("(__rc_bar_in(__rc, %u), ", site)),
			hole(call->start, call->end),
			lit(xasprintf(", barrier(%s), __rc_bar_out(__rc, %s, 0))", both, both)),
			END_PIECES });
}

/* A barrier: the epochs of the fences it passes close after it. The fences are the
 * call's first argument as written, a macro's name as often as not. */
static void wrap_barrier(struct rewriter *rw, struct node *call)
{
	unsigned open = call->start;
	while (open < call->end && rw->text.src[open] != '(')
		open++;
	unsigned close = call->end ? call->end - 1 : 0, first = open + 1;
	int depth = 0;
	for (; first < close; first++) {
		char ch = rw->text.src[first];
		depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		if (ch == ',' && depth == 0)
			break;
	}
	if (!call->own_text || open >= close || rw->text.src[close] != ')') {
		add_gap(rw, call->start, "a barrier written through a macro");
		return;
	}
	unsigned site = barrier_site(rw, call->start);
	/* Flags the group's items all pass alike need no comparing between them. */
	struct node **args;
	bool alike = call_arguments(call, &args) >= 1 && uniform_expr(rw->uniform, args[0]);
	edit_of(rw, call->start, call->end,
		(struct piece[]){ lit(xasprintf("(__rc_bar_in(__rc, %u), ", site)),
				  hole(call->start, call->end),
				  lit(xstrdup(", __rc_bar_out(__rc, ")), hole(open + 1, first),
				  lit(xasprintf(", %d))", alike ? 0 : 1)), END_PIECES });
}

static bool listed(char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* Where the parenthesis closing a call's arguments or a function's parameters is: the
 * last ')' of the call's text, or the one matching the first '(' after a declaration's
 * name. */
static unsigned closing_paren(const struct rewriter *rw, unsigned open)
{
	int depth = 0;
	for (unsigned i = open; i < rw->text.len; i++) {
		if (rw->text.src[i] == '(')
			depth++;
		else if (rw->text.src[i] == ')' && --depth == 0)
			return i;
	}
	return 0;
}

/* A call to a function of the file passes the context on. */
static void pass_context(struct rewriter *rw, struct node *call, const char *name)
{
	if (!call->own_text || call->end == 0 || rw->text.src[call->end - 1] != ')') {
		add_gap(rw, call->start, "a call written through a macro");
		return;
	}
	struct node **args;
	bool kernel = listed(rw->kernel_names, rw->nkernel_names, name);
	const char *pass = kernel ? "__rc->grp->cells, __rc->grp->aux, __rc->grp->ctl" : "__rc";
	insert(rw, call->end - 1,
	       xasprintf("%s%s", call_arguments(call, &args) ? ", " : "", pass));
}

static bool is_barrier_call(const struct node *n)
{
	if (n->kind != CXCursor_CallExpr || !n->own_text)
		return false;
	char *name = srctree_callee(n);
	bool barrier = strcmp(name, "barrier") == 0 || strcmp(name, "work_group_barrier") == 0;
	free(name);
	return barrier;
}

/* Up to `max` barrier calls in n's text, in order; returns how many. */
static size_t barriers_in(struct node *n, struct node **out, size_t count, size_t max)
{
	if (count < max && is_barrier_call(n))
		out[count++] = n;
	for (size_t i = 0; i < n->nkids; i++)
		count = barriers_in(n->kids[i], out, count, max);
	return count;
}

/* The first barrier call in n's text at or after offset `from`, or NULL. */
static struct node *first_barrier(struct node *n, unsigned from)
{
	if (is_barrier_call(n) && n->start >= from)
		return n;
	for (size_t i = 0; i < n->nkids; i++) {
		struct node *b = first_barrier(n->kids[i], from);
		if (b)
			return b;
	}
	return NULL;
}

/* Whether n holds a statement of kind k that leaves n's own control: a return anywhere,
 * a break or continue outside the loops (and, for break, switches) n itself holds. */
static bool leaves(const struct node *n, enum CXCursorKind k)
{
	if (n->kind == k)
		return true;
	if (k != CXCursor_ReturnStmt &&
	    (srctree_is_loop(n->kind) ||
	     (k == CXCursor_BreakStmt && n->kind == CXCursor_SwitchStmt)))
		return false;
	for (size_t i = 0; i < n->nkids; i++)
		if (leaves(n->kids[i], k))
			return true;
	return false;
}

/* The first barrier control can reach after stmt ends: one later in a statement that
 * holds it, other than the other arm of an if it is in. */
static struct node *barrier_after(struct node *stmt)
{
	for (struct node *child = stmt, *p = stmt->parent; p; child = p, p = p->parent) {
		if (p->kind == CXCursor_IfStmt)
			continue;
		for (size_t i = 0; i < p->nkids; i++) {
			struct node *b = p->kids[i]->start >= child->end
						 ? first_barrier(p->kids[i], 0)
						 : NULL;
			if (b)
				return b;
		}
	}
	return NULL;
}

static struct node *enclosing_loop(struct node *n)
{
	for (struct node *p = n->parent; p; p = p->parent)
		if (srctree_is_loop(p->kind))
			return p;
	return NULL;
}

/* The barrier a branch's statements decide whether an item reaches: one in them, or,
 * where they leave by return, break or continue, the first the leaving skips. */
static struct node *guarded_barrier(struct rewriter *rw, struct node *stmt,
				    struct node *const *arms, size_t narms)
{
	for (size_t i = 0; i < narms; i++) {
		struct node *b = arms[i] ? first_barrier(arms[i], 0) : NULL;
		if (b)
			return b;
	}
	struct node *loop = enclosing_loop(stmt);
	for (size_t i = 0; i < narms; i++) {
		if (arms[i] == NULL)
			continue;
		struct node *b = NULL;
		if (leaves(arms[i], CXCursor_ReturnStmt)) {
			b = barrier_after(stmt);
			for (struct node *l = loop; b == NULL && l; l = enclosing_loop(l))
				b = first_barrier(l, 0);
		}
		if (b == NULL && loop && leaves(arms[i], CXCursor_BreakStmt))
			b = first_barrier(loop, 0);
		if (b == NULL && loop && leaves(arms[i], CXCursor_ContinueStmt))
			b = first_barrier(loop, stmt->end);
		if (b)
			return b;
	}
	return NULL;
}

/* A branch that decides whether an item reaches a barrier: its condition goes through
 * the runtime, which compares it between the items of a group. A device that runs a
 * group's items one after another takes such a branch as one item's condition decides
 * it for all (PoCL), so the divergence shows neither in the barriers' counts nor in the
 * items' tallies there. */
static void guard_branch(struct rewriter *rw, struct node *stmt)
{
	struct node *cond = NULL, *arms[2] = { NULL, NULL };
	if (stmt->kind == CXCursor_IfStmt && stmt->nkids >= 2) {
		cond = stmt->kids[0];
		arms[0] = stmt->kids[1];
		arms[1] = stmt->nkids > 2 ? stmt->kids[2] : NULL;
	} else if (stmt->kind == CXCursor_WhileStmt && stmt->nkids == 2) {
		cond = stmt->kids[0];
		arms[0] = stmt->kids[1];
	} else if (stmt->kind == CXCursor_DoStmt && stmt->nkids == 2) {
		cond = stmt->kids[1];
		arms[0] = stmt->kids[0];
	} else if (stmt->kind == CXCursor_ForStmt && stmt->nkids >= 1) {
		unsigned init_end;
		cond = srctree_for_condition(&rw->text, stmt, &init_end);
		arms[0] = stmt->kids[stmt->nkids - 1];
	}
	/* A uniform condition sends the group's items one way. */
	if (cond == NULL || !cond->own_text || cond->kind == CXCursor_DeclStmt ||
	    cond->kind == CXCursor_VarDecl || !stmt->own_text || uniform_expr(rw->uniform, cond))
		return;
	struct node *barrier = guarded_barrier(rw, stmt, arms, 2);
	if (barrier == NULL)
		return;
	struct node *other = stmt->kind == CXCursor_IfStmt && arms[1] && arms[0] &&
					     first_barrier(arms[0], 0) == barrier
				     ? first_barrier(arms[1], 0)
				     : NULL;
	unsigned site = barrier_site(rw, barrier->start);
	unsigned other_site = other ? barrier_site(rw, other->start) : 0;
	/* An item the branch sends the other way misses, or passes, every barrier of the
	 * arm that holds this one: each is said, as the simulator says each. */
	struct node *more[8];
	size_t nmore = 0;
	for (size_t i = 0; i < 2 && nmore == 0; i++)
		if (arms[i] && first_barrier(arms[i], 0) == barrier)
			nmore = barriers_in(arms[i], more, 0, sizeof more / sizeof more[0]);
	struct strbuf open = { 0 }, close = { 0 };
	for (size_t i = 1; i < nmore; i++) {
		strbuf_puts(&open, "__rc_branch_also(__rc, ");
		strbuf_printf(&close, ", %u)", barrier_site(rw, more[i]->start));
	}
	edit_of(rw, cond->start, cond->end,
		(struct piece[]){
			lit(xasprintf("%s__rc_branch(__rc, (", open.data ? open.data : "")),
			hole(cond->start, cond->end),
			lit(xasprintf(") ? 1 : 0, %u, %u)%s", site, other_site,
				      close.data ? close.data : "")),
			END_PIECES });
	strbuf_free(&open);
	strbuf_free(&close);
}

/* An index into an array whose size its type gives: a private array, a struct's array
 * field, or a row of an array of arrays, in any space. The index goes through the runtime,
 * which reports one past the array; a local array the kernel declares is a region of its
 * own, which the access's check holds it to. */
static void check_index(struct rewriter *rw, struct node *n)
{
	if (n->nkids != 2 || !n->own_text || !n->kids[1]->own_text)
		return;
	struct node *base = srctree_unwrapped(n->kids[0]), *index = n->kids[1];
	if (base == NULL)
		return;
	CXType type = clang_api.clang_getCursorType(base->cursor);
	long long count =
		type.kind == CXType_ConstantArray ? clang_api.clang_getArraySize(type) : -1;
	if (count <= 0)
		return;
	char space = object_space(n->type);
	/* An array variable's space is in its type's spelling, before its bounds. */
	if (base->kind == CXCursor_DeclRefExpr &&
	    (strstr(base->type, "__local") || strstr(base->type, "__global") ||
	     strstr(base->type, "__constant")))
		return;
	if (base->kind != CXCursor_DeclRefExpr && base->kind != CXCursor_MemberRefExpr &&
	    base->kind != CXCursor_ArraySubscriptExpr)
		return;
	struct node *assignment;
	unsigned written_at;
	char use = usage(rw, n, &assignment, &written_at);
	/* &a[n] may point one past the array. */
	if (use == 0)
		return;
	char access = use == 'w' ? 'w' : use == 'u' ? 'u' : 'r';
	unsigned site =
		add_site(rw, access == 'r' ? n->start : written_at, access, space ? space : 'p');
	int code = space == 'g' ? 0 : space == 'l' ? 1 : space == 'c' ? 2 : SHADOW_PRIVATE;
	edit_of(rw, index->start, index->end,
		(struct piece[]){
			lit(xstrdup("__rc_index(__rc, (long)(")), hole(index->start, index->end),
			lit(xasprintf("), %lld, %u, %d)", count, site, code)), END_PIECES });
}

static void visit_node(struct rewriter *rw, struct node *n)
{
	if (n->kind == CXCursor_IfStmt || srctree_is_loop(n->kind))
		guard_branch(rw, n);
	if (n->kind == CXCursor_CallExpr) {
		char *name = srctree_callee(n);
		unsigned lanes;
		char io;
		if (strcmp(name, "barrier") == 0 || strcmp(name, "work_group_barrier") == 0)
			wrap_barrier(rw, n);
		else if (is_atomic_function(name))
			wrap_atomic(rw, n);
		else if (strcmp(name, "async_work_group_copy") == 0 ||
			 strcmp(name, "async_work_group_strided_copy") == 0)
			wrap_async_copy(rw, n, name);
		else if (strcmp(name, "wait_group_events") == 0)
			wrap_wait(rw, n);
		else if ((io = vector_io(name, &lanes)) != 0)
			wrap_vector_io(rw, n, name, io, lanes);
		else if (listed(rw->helpers, rw->nhelpers, name) ||
			 listed(rw->kernel_names, rw->nkernel_names, name))
			pass_context(rw, n, name);
		free(name);
	} else if (n->kind == CXCursor_ReturnStmt && rw->in_kernel && n->own_text) {
		unsigned semi = n->end;
		while (semi < rw->text.len && rw->text.src[semi] != ';')
			semi++;
		if (semi < rw->text.len)
			edit_of(rw, n->start, semi + 1,
				(struct piece[]){ lit(xstrdup("{ __rc_exit(__rc); ")),
						  hole(n->start, semi + 1), lit(xstrdup(" }")),
						  END_PIECES });
	} else if (n->kind == CXCursor_DeclStmt && rw->in_kernel && n->own_text) {
		for (size_t i = 0; i < n->nkids; i++) {
			struct node *v = n->kids[i];
			/* A local array or scalar, not a pointer to local memory. */
			if (v->kind != CXCursor_VarDecl || !starts_with(v->type, "__local") ||
			    strchr(v->type, '*') || v->size <= 0)
				continue;
			char *name = clang_api_text(clang_api.clang_getCursorSpelling(v->cursor));
			insert(rw, n->end,
			       xasprintf(" __rc_lreg(__rc, %zu, (ulong)&%s, %lld);",
					 rw->nlocal_params + rw->nlocal_vars, name, v->size));
			free(name);
			rw->local_vars = xreallocarray(rw->local_vars, rw->nlocal_vars + 1,
						       sizeof *rw->local_vars);
			rw->local_vars[rw->nlocal_vars++] = v->cursor;
			strbuf_printf(&rw->local_sizes, "%s%lld", rw->local_sizes.len ? "," : "",
				      v->size);
		}
	} else if (!unevaluated(n)) {
		if (n->kind == CXCursor_ArraySubscriptExpr)
			check_index(rw, n);
		char space = access_space(rw, n);
		if (space)
			wrap_access(rw, n, space);
	}
	for (size_t i = 0; i < n->nkids; i++)
		visit_node(rw, n->kids[i]);
}

/* Whether a function's text declares a kernel: kernel or __kernel before its name. */
static bool declares_kernel(const struct rewriter *rw, CXCursor fn)
{
	CXSourceRange range = clang_api.clang_getCursorExtent(fn);
	unsigned start, name;
	if (!file_offset(rw, clang_api.clang_getRangeStart(range), &start) ||
	    !file_offset(rw, clang_api.clang_getCursorLocation(fn), &name) || name < start)
		return false;
	for (unsigned i = start; i + 6 <= name; i++) {
		bool word_start =
			i == start || !(rw->text.src[i - 1] == '_' ||
					(rw->text.src[i - 1] >= 'a' && rw->text.src[i - 1] <= 'z'));
		if (word_start && (strncmp(rw->text.src + i, "kernel", 6) == 0 ||
				   strncmp(rw->text.src + i, "__kernel", 8) == 0))
			return true;
	}
	return false;
}

/* The offsets of a function's parameter list's parentheses. */
static bool param_parens(const struct rewriter *rw, CXCursor fn, unsigned *open, unsigned *close)
{
	unsigned name;
	if (!file_offset(rw, clang_api.clang_getCursorLocation(fn), &name))
		return false;
	unsigned i = name;
	while (i < rw->text.len && rw->text.src[i] != '(')
		i++;
	if (i >= rw->text.len)
		return false;
	*open = i;
	*close = closing_paren(rw, i);
	return *close > *open;
}

/* Whether the text between a function's parentheses names no parameter: () or (void). */
static bool no_params(const struct rewriter *rw, unsigned open, unsigned close)
{
	char inner[16];
	size_t n = 0;
	for (unsigned i = open + 1; i < close && n < sizeof inner - 1; i++)
		if (rw->text.src[i] != ' ' && rw->text.src[i] != '\t' && rw->text.src[i] != '\n')
			inner[n++] = rw->text.src[i];
	inner[n] = '\0';
	return n == 0 || strcmp(inner, "void") == 0;
}

static void add_params(struct rewriter *rw, CXCursor fn, const char *params)
{
	unsigned open, close;
	if (!param_parens(rw, fn, &open, &close))
		return;
	if (no_params(rw, open, close))
		edit_of(rw, open + 1, close, (struct piece[]){ lit(xstrdup(params)), END_PIECES });
	else
		insert(rw, close, xasprintf(", %s", params));
}

static void rewrite_function(struct rewriter *rw, CXCursor fn)
{
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(fn));
	bool kernel = declares_kernel(rw, fn);
	bool definition = clang_api.clang_isCursorDefinition(fn);
	add_params(rw, fn,
		   kernel ? "__global ulong *__rc_cells, __global ulong *__rc_aux, "
			    "__global uint *__rc_ctl"
			  : "__rc_ctx *__rc");
	if (!definition) {
		free(name);
		return;
	}
	growing_rw = rw;
	struct node *root = node_new(rw, fn, NULL);
	struct node *body = NULL;
	for (size_t i = 0; i < root->nkids; i++)
		if (root->kids[i]->kind == CXCursor_CompoundStmt)
			body = root->kids[i];
	rw->in_kernel = kernel;
	rw->fn_root = root;
	rw->uniform = uniform_analyse(&rw->text, root, kernel);
	rw->nparams = rw->nlocal_vars = rw->nlocal_params = 0;
	strbuf_free(&rw->local_sizes);
	struct strbuf prelude = { 0 }, spaces = { 0 };
	size_t nglobal = 0;
	for (size_t i = 0; kernel && i < root->nkids; i++) {
		struct node *p = root->kids[i];
		if (p->kind != CXCursor_ParmDecl)
			continue;
		char *pname = clang_api_text(clang_api.clang_getCursorSpelling(p->cursor));
		CXType pointee =
			clang_api.clang_getPointeeType(clang_api.clang_getCursorType(p->cursor));
		char *ptext = clang_api_text(clang_api.clang_getTypeSpelling(pointee));
		char space = pointee.kind == CXType_Invalid ? 0 : object_space(ptext);
		int region = -1;
		if (space == 'g' || space == 'c') {
			region = (int)nglobal++;
			strbuf_printf(&prelude, "__rc_greg(__rc, %d, (ulong)%s); ", region, pname);
		} else if (space == 'l') {
			region = (int)rw->nlocal_params++;
			strbuf_printf(&prelude, "__rc_lparam(__rc, %d, (ulong)%s); ", region,
				      pname);
		}
		strbuf_printf(&spaces, "%c", space ? space : 'p');
		rw->params = xreallocarray(rw->params, rw->nparams + 1, sizeof *rw->params);
		rw->param_region =
			xreallocarray(rw->param_region, rw->nparams + 1, sizeof *rw->param_region);
		rw->params[rw->nparams] = p->cursor;
		rw->param_region[rw->nparams++] = region;
		free(ptext);
		free(pname);
	}
	size_t before = rw->store_defs.len;
	if (body && body->own_text)
		visit_node(rw, body);
	if (kernel && body && body->own_text) {
		insert(rw, body->start + 1,
		       xasprintf(
			       " __rc_ctx __rc_c; __rc_ctx *__rc = &__rc_c; __rc_group __rc_gc; "
			       "__local uchar __rc_lsink[%d] __attribute__((aligned(%d))); "
			       "__rc_init(__rc, &__rc_gc, __rc_cells, __rc_aux, __rc_ctl, __rc_lsink); %s",
			       SHADOW_SINK_BYTES, SHADOW_SINK_BYTES,
			       prelude.data ? prelude.data : ""));
		insert(rw, body->end - 1, xstrdup(" __rc_exit(__rc); "));
		strbuf_printf(&rw->kernels, "K\t%s\t%s\t%s\n", name,
			      spaces.data ? spaces.data : "",
			      rw->local_sizes.data ? rw->local_sizes.data : "");
		if (nglobal > rw->max_global)
			rw->max_global = nglobal;
		if (rw->nlocal_params + rw->nlocal_vars > rw->max_local)
			rw->max_local = rw->nlocal_params + rw->nlocal_vars;
	}
	if (rw->store_defs.len > before) {
		unsigned at;
		CXSourceRange range = clang_api.clang_getCursorExtent(fn);
		if (file_offset(rw, clang_api.clang_getRangeStart(range), &at))
			insert(rw, at, xstrndup(rw->store_defs.data + before,
						rw->store_defs.len - before));
	}
	strbuf_free(&prelude);
	strbuf_free(&spaces);
	uniform_free(rw->uniform);
	rw->uniform = NULL;
	node_free(root);
	free(name);
}

/* First pass: the names of the functions the file defines, kernels apart. */
static enum CXChildVisitResult find_functions(CXCursor c, CXCursor parent, CXClientData data)
{
	struct rewriter *rw = data;
	if (clang_api.clang_getCursorKind(c) != CXCursor_FunctionDecl ||
	    !clang_api.clang_Location_isFromMainFile(clang_api.clang_getCursorLocation(c)) ||
	    !clang_api.clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(c));
	if (declares_kernel(rw, c)) {
		rw->kernel_names = xreallocarray(rw->kernel_names, rw->nkernel_names + 1,
						 sizeof *rw->kernel_names);
		rw->kernel_names[rw->nkernel_names++] = name;
	} else {
		rw->helpers = xreallocarray(rw->helpers, rw->nhelpers + 1, sizeof *rw->helpers);
		rw->helpers[rw->nhelpers++] = name;
	}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult rewrite_functions(CXCursor c, CXCursor parent, CXClientData data)
{
	struct rewriter *rw = data;
	if (clang_api.clang_getCursorKind(c) != CXCursor_FunctionDecl ||
	    !clang_api.clang_Location_isFromMainFile(clang_api.clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	char *name = clang_api_text(clang_api.clang_getCursorSpelling(c));
	bool ours = listed(rw->helpers, rw->nhelpers, name) ||
		    listed(rw->kernel_names, rw->nkernel_names, name);
	free(name);
	if (ours)
		rewrite_function(rw, c);
	return CXChildVisit_Continue;
}

struct instrument_job {
	const char *path, *options;
};

/* The runtime's preamble: the sizes and words it is built with, then its text, then the
 * line numbering of the kernel file from its first line. */
static void preamble(const struct rewriter *rw, const char *path, unsigned shift,
		     struct strbuf *out)
{
	strbuf_printf(out, "#define __RC_SHIFT %u\n", shift);
	strbuf_printf(out, "#define __RC_MAXG %zu\n#define __RC_MAXL %zu\n",
		      rw->max_global ? rw->max_global : 1, rw->max_local ? rw->max_local : 1);
	strbuf_printf(out, "#define __RC_SINK %d\n#define __RC_RECORD %d\n", SHADOW_SINK_BYTES,
		      SHADOW_RECORD_WORDS);
	strbuf_printf(out,
		      "#define __RC_BRANCHES %d\n#define __RC_GROUP_WORDS %d\n"
		      "#define __RC_GW_TALLY %d\n#define __RC_GW_ARRIVED %d\n"
		      "#define __RC_GW_FLAGS %d\n#define __RC_GW_BRANCHES %d\n",
		      SHADOW_BRANCHES, SHADOW_GROUP_WORDS, SHADOW_GW_TALLY, SHADOW_GW_ARRIVED,
		      SHADOW_GW_FLAGS, SHADOW_GW_BRANCHES);
	static const struct {
		const char *name;
		int word;
	} words[] = {
		{ "LOG_COUNT", CTL_LOG_COUNT },	    { "LOG_CAP", CTL_LOG_CAP },
		{ "SHIFT", CTL_SHIFT },		    { "NSITES", CTL_NSITES },
		{ "PAIRS", CTL_PAIRS },		    { "LOG", CTL_LOG },
		{ "DIVERGENCE", CTL_DIVERGENCE },   { "LOCAL_EACH", CTL_LOCAL_EACH },
		{ "LOCAL_CELLS", CTL_LOCAL_CELLS }, { "SINK", CTL_SINK },
		{ "NGLOBAL", CTL_NGLOBAL },	    { "NLOCAL", CTL_NLOCAL },
		{ "REGIONS", CTL_REGIONS },
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		strbuf_printf(out, "#define __RC_CTL_%s %d\n", words[i].name, words[i].word);
	strbuf_puts(out, shadow_runtime);
	strbuf_puts(out, "#line 1 \"");
	for (const char *c = path; *c; c++)
		strbuf_printf(out, "%s%c", *c == '"' || *c == '\\' ? "\\" : "", *c);
	strbuf_puts(out, "\"\n");
}

/* In the child: "G", "S", "K" and "U" lines, then "X\tLEN" and the rewritten text; or
 * clang's errors. */
static void instrument_in_child(void *ctx, struct strbuf *out)
{
	const struct instrument_job *job = ctx;
	struct diag_list diags = { 0 };
	size_t len;
	char *src;
	CXIndex index = clang_api.clang_createIndex(0, 0);
	CXTranslationUnit tu = clang_api_read(index, job->path, job->options, &src, &len, &diags);
	diag_list_send(out, &diags);
	if (tu) {
		struct rewriter rw = {
			.tu = tu, .path = job->path, .text = { src, len }, .min_access = 4
		};
		CXCursor top = clang_api.clang_getTranslationUnitCursor(tu);
		clang_api.clang_visitChildren(top, find_functions, &rw);
		clang_api.clang_visitChildren(top, rewrite_functions, &rw);
		qsort(rw.edits, rw.nedits, sizeof *rw.edits, by_range);
		unsigned shift = rw.min_access >= 4 ? 2 : rw.min_access >= 2 ? 1 : 0;
		strbuf_printf(out, "G\t%u\n", shift);
		if (rw.sites.data)
			strbuf_puts(out, rw.sites.data);
		if (rw.kernels.data)
			strbuf_puts(out, rw.kernels.data);
		if (rw.gaps.data)
			strbuf_puts(out, rw.gaps.data);
		struct strbuf text = { 0 };
		preamble(&rw, job->path, shift, &text);
		render(&rw, 0, (unsigned)len, NULL, &text);
		strbuf_printf(out, "X\t%zu\n", text.len);
		strbuf_append(out, text.data, text.len);
		strbuf_free(&text);
		for (size_t i = 0; i < rw.nedits; i++) {
			for (size_t p = 0; p < rw.edits[i].npieces; p++)
				free(rw.edits[i].pieces[p].text);
			free(rw.edits[i].pieces);
		}
		free(rw.edits);
		free(rw.barrier_at);
		free(rw.barrier_site);
		strbuf_free(&rw.sites);
		strbuf_free(&rw.kernels);
		strbuf_free(&rw.gaps);
		strbuf_free(&rw.store_defs);
		strbuf_free(&rw.local_sizes);
		strings_free(rw.helpers, (long)rw.nhelpers);
		strings_free(rw.kernel_names, (long)rw.nkernel_names);
		strings_free(rw.stores, (long)rw.nstores);
		free(rw.params);
		free(rw.param_region);
		free(rw.local_vars);
		clang_api.clang_disposeTranslationUnit(tu);
	}
	clang_api.clang_disposeIndex(index);
	diag_list_free(&diags);
	free(src);
}

char *instrument_serialised(const char *path, const char *options, struct diag_list *diags)
{
	struct instrument_job job = { path, options ? options : "" };
	bool ok;
	char *why;
	char *text = clang_api_in_child(instrument_in_child, &job, &ok, &why);
	if (!ok) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "clang stopped reading it: %s", why);
		free(text);
		text = NULL;
	}
	free(why);
	return text;
}

#else

char *instrument_serialised(const char *path, const char *options, struct diag_list *diags)
{
	(void)options;
	diag_add(diags, DIAG_ERROR, path, 0, 0,
		 "racecheck rewrites kernels with libclang, which this build lacks: install "
		 "libclang-dev and run configure again");
	return NULL;
}

bool instrument_available(void)
{
	return false;
}

#endif

static void take_kernel(struct instr_program *p, char *rest, unsigned shift)
{
	struct instr_kernel k = { 0 };
	k.name = xstrdup(next_tab_field(&rest));
	k.spaces = xstrdup(next_tab_field(&rest));
	k.nparams = strlen(k.spaces);
	/* Each array takes whole granules, as the runtime lays them out. */
	uint64_t granule = 1u << shift;
	for (char *save = NULL, *size = strtok_r(next_tab_field(&rest), ",", &save); size;
	     size = strtok_r(NULL, ",", &save))
		k.local_bytes += (strtoull(size, NULL, 10) + granule - 1) / granule * granule;
	p->kernels = xreallocarray(p->kernels, p->nkernels + 1, sizeof *p->kernels);
	p->kernels[p->nkernels++] = k;
}

int instrument_parse(const char *path, const char *serialised, struct instr_program *out,
		     struct diag_list *diags)
{
	*out = (struct instr_program){ 0 };
	char *text = xstrdup(serialised);
	size_t errors = 0;
	char *at = text;
	while (*at) {
		char *nl = strchr(at, '\n');
		if (nl == NULL)
			break;
		*nl = '\0';
		char *rest = at;
		char *tag = next_tab_field(&rest);
		at = nl + 1;
		if (strcmp(tag, "E") == 0) {
			diag_take_sent(diags, path, rest);
			errors++;
		} else if (strcmp(tag, "G") == 0) {
			out->granule_shift = (unsigned)atoi(rest);
		} else if (strcmp(tag, "S") == 0) {
			struct instr_site s = { 0 };
			s.line = atoi(next_tab_field(&rest));
			s.col = atoi(next_tab_field(&rest));
			s.access = *next_tab_field(&rest);
			char space = *next_tab_field(&rest);
			s.space = space == '-' ? 0 : space;
			out->sites = xreallocarray(out->sites, out->nsites + 1, sizeof *out->sites);
			out->sites[out->nsites++] = s;
		} else if (strcmp(tag, "K") == 0) {
			take_kernel(out, rest, out->granule_shift);
		} else if (strcmp(tag, "U") == 0) {
			struct instr_gap g = { 0 };
			g.line = atoi(next_tab_field(&rest));
			g.col = atoi(next_tab_field(&rest));
			g.why = xstrdup(rest);
			out->gaps = xreallocarray(out->gaps, out->ngaps + 1, sizeof *out->gaps);
			out->gaps[out->ngaps++] = g;
		} else if (strcmp(tag, "X") == 0) {
			size_t n = strtoull(rest, NULL, 10);
			if (n <= strlen(at)) {
				out->source = xstrndup(at, n);
				out->len = n;
			}
			break;
		}
	}
	free(text);
	if (errors == 0 && out->source == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "the rewrite gave no program");
		errors++;
	}
	if (errors > 0) {
		instr_program_free(out);
		return -1;
	}
	return 0;
}

int instrument_program(const char *path, const char *options, struct instr_program *out,
		       struct diag_list *diags)
{
	*out = (struct instr_program){ 0 };
	char *text = instrument_serialised(path, options, diags);
	if (text == NULL)
		return -1;
	int status = instrument_parse(path, text, out, diags);
	free(text);
	return status;
}

const char *instrument_version(void)
{
	static char version[32];
	if (*version == '\0') {
		uint32_t h = 2166136261u;
		for (const char *c = shadow_runtime; *c; c++)
			h = (h ^ (unsigned char)*c) * 16777619u;
		/* The leading number is the rewrite's own revision: a change in what it
		 * writes (a site's column, say) must not be served from a cache of the old. */
		snprintf(version, sizeof version, "racecheck-20-%08x", h);
	}
	return version;
}

const struct instr_kernel *instr_program_kernel(const struct instr_program *p, const char *name)
{
	for (size_t i = 0; i < p->nkernels; i++)
		if (strcmp(p->kernels[i].name, name) == 0)
			return &p->kernels[i];
	return NULL;
}

void instr_program_free(struct instr_program *p)
{
	free(p->source);
	free(p->sites);
	for (size_t i = 0; i < p->nkernels; i++) {
		free(p->kernels[i].name);
		free(p->kernels[i].spaces);
	}
	free(p->kernels);
	for (size_t i = 0; i < p->ngaps; i++)
		free(p->gaps[i].why);
	free(p->gaps);
	*p = (struct instr_program){ 0 };
}
