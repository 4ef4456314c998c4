/* srctree.c - what can be read off a function body's nodes and their text
 * (srctree.h). */
#include "config.h"

#ifdef HAVE_LIBCLANG

#include "source/srctree.h"

#include <string.h>

#include "base/util.h"

struct node *srctree_unwrapped(struct node *n)
{
	while (n && (n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr) &&
	       n->nkids == 1)
		n = n->kids[0];
	return n;
}

/* The run of operator characters after the first operand (binary, postfix) or before
 * the operand (prefix), past spaces and the parentheses around operands: libclang 14
 * does not name an operator. */
char *srctree_operator(const struct srctext *text, const struct node *n)
{
	unsigned from, to;
	if (n->nkids == 2) {
		from = n->kids[0]->end;
		to = n->end;
	} else if (n->nkids == 1 && n->kids[0]->start > n->start) {
		from = n->start;
		to = n->kids[0]->start;
	} else if (n->nkids == 1) {
		from = n->kids[0]->end;
		to = n->end;
	} else {
		return xstrdup("");
	}
	if (from > to || to > text->len)
		return xstrdup("");
	while (from < to && strchr(" \t\n()", text->src[from]))
		from++;
	unsigned end = from;
	while (end < to && strchr("=+-*/%<>&|^!~", text->src[end]))
		end++;
	return xstrndup(text->src + from, end - from);
}

char *srctree_callee(const struct node *call)
{
	return clang_api_text(clang_api.clang_getCursorSpelling(call->cursor));
}

bool srctree_is_loop(enum CXCursorKind k)
{
	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
}

struct node *srctree_for_condition(const struct srctext *text, const struct node *stmt,
				   unsigned *init_end)
{
	unsigned open = stmt->start, semi[2] = { 0, 0 };
	while (open < stmt->end && open < text->len && text->src[open] != '(')
		open++;
	*init_end = open;
	int depth = 0, found = 0;
	for (unsigned i = open + 1; i < stmt->end && i < text->len && found < 2; i++) {
		char ch = text->src[i];
		depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
		if (depth < 0)
			break;
		if (ch == ';' && depth == 0)
			semi[found++] = i;
	}
	if (found < 2)
		return NULL;
	*init_end = semi[0];
	for (size_t i = 0; i + 1 < stmt->nkids; i++)
		if (stmt->kids[i]->start > semi[0] && stmt->kids[i]->end <= semi[1])
			return stmt->kids[i];
	return NULL;
}

#endif
