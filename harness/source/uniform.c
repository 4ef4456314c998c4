/* uniform.c - which of a function's expressions are uniform across a work-group
 * (uniform.h).
 *
 * Optimistic, as divergence analyses are: every variable starts uniform, and one is
 * marked varying as soon as one of its writes is not uniform, until no mark changes.
 * A write is uniform where its value is, and where it is made by every item still
 * running: no enclosing branch or loop has a varying condition, and no loop around it
 * is left or continued early by some items only (a break or continue under a varying
 * condition; a return takes the item out altogether, so it leaves the others alike).
 * A variable whose address is taken, an array, a struct or vector written a part at a
 * time, and anything a goto can reach are varying. */
#include "config.h"

#ifdef HAVE_LIBCLANG

#include "source/uniform.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct uniform {
	const struct srctext *text;
	CXCursor *vars;
	bool *varying;
	size_t nvars;
	bool any_goto;
};

static bool is_expression(enum CXCursorKind k)
{
	return k >= CXCursor_FirstExpr && k <= CXCursor_LastExpr;
}

static long var_index(const struct uniform *u, CXCursor c)
{
	for (size_t i = 0; i < u->nvars; i++)
		if (clang_api.clang_equalCursors(u->vars[i], c))
			return (long)i;
	return -1;
}

static void add_var(struct uniform *u, CXCursor c, bool varying)
{
	u->vars = xreallocarray(u->vars, u->nvars + 1, sizeof *u->vars);
	u->varying = xreallocarray(u->varying, u->nvars + 1, sizeof *u->varying);
	u->vars[u->nvars] = c;
	u->varying[u->nvars++] = varying;
}

/* The variable a DeclRefExpr n names, or -1. */
static long referenced_var(const struct uniform *u, const struct node *n)
{
	n = srctree_unwrapped((struct node *)n);
	if (n == NULL || n->kind != CXCursor_DeclRefExpr)
		return -1;
	return var_index(u, clang_api.clang_getCursorReferenced(n->cursor));
}

/* Builtins whose value, for uniform arguments, is the same for all items of a group:
 * the launch's shape and the group's place in it, and pure arithmetic. */
static bool uniform_builtin(const char *name)
{
	static const char *const names[] = {
		"get_local_size",
		"get_enqueued_local_size",
		"get_num_groups",
		"get_group_id",
		"get_global_size",
		"get_work_dim",
		"get_global_offset",
		"min",
		"max",
		"clamp",
		"abs",
		"mul24",
		"mad24",
		"popcount",
		"clz",
		"rotate",
		"select",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static bool kids_uniform(const struct uniform *u, struct node *n, size_t from)
{
	for (size_t i = from; i < n->nkids; i++)
		if (is_expression(n->kids[i]->kind) && !uniform_expr(u, n->kids[i]))
			return false;
	return true;
}

bool uniform_expr(const struct uniform *u, struct node *n)
{
	if (u == NULL || n == NULL || u->any_goto)
		return false;
	switch (n->kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
	case CXCursor_UnaryExpr: /* sizeof, alignof, vec_step */
		return true;
	case CXCursor_UnexposedExpr:
	case CXCursor_ParenExpr:
	case CXCursor_CStyleCastExpr:
	case CXCursor_ConditionalOperator:
		return n->nkids > 0 && kids_uniform(u, n, 0);
	case CXCursor_DeclRefExpr: {
		CXCursor to = clang_api.clang_getCursorReferenced(n->cursor);
		if (clang_api.clang_getCursorKind(to) == CXCursor_EnumConstantDecl)
			return true;
		long v = var_index(u, to);
		return v >= 0 && !u->varying[v];
	}
	case CXCursor_BinaryOperator: {
		/* Not x = y; x += y is a CompoundAssignOperator, never uniform here. */
		char *op = srctree_operator(u->text, n);
		bool pure = strcmp(op, "=") != 0;
		free(op);
		return pure && n->nkids == 2 && kids_uniform(u, n, 0);
	}
	case CXCursor_UnaryOperator: {
		/* Not *p (memory), &x (each item's own), ++ or --. */
		char *op = srctree_operator(u->text, n);
		bool pure = strcmp(op, "-") == 0 || strcmp(op, "+") == 0 || strcmp(op, "!") == 0 ||
			    strcmp(op, "~") == 0;
		free(op);
		return pure && n->nkids == 1 && kids_uniform(u, n, 0);
	}
	case CXCursor_CallExpr: {
		char *name = srctree_callee(n);
		bool known = uniform_builtin(name);
		free(name);
		return known && kids_uniform(u, n, 1);
	}
	default:
		return false;
	}
}

static bool control_uniform(const struct uniform *u, struct node *n, const struct node *upto);

/* Whether the breaks and continues in `at` that leave or continue stmt (a loop or a
 * switch) are taken by all of a group's items or none: a loop nested in it owns its
 * own, and a switch its breaks. */
static bool exits_uniform(const struct uniform *u, struct node *at, const struct node *stmt,
			  bool continues, bool in_switch)
{
	if (at != stmt && srctree_is_loop(at->kind))
		return true;
	if ((at->kind == CXCursor_BreakStmt && !in_switch) ||
	    (at->kind == CXCursor_ContinueStmt && continues))
		return control_uniform(u, at, stmt);
	bool switched = in_switch || (at != stmt && at->kind == CXCursor_SwitchStmt);
	for (size_t i = 0; i < at->nkids; i++)
		if (!exits_uniform(u, at->kids[i], stmt, continues, switched))
			return false;
	return true;
}

/* A loop's body, the statement its condition repeats. */
static const struct node *loop_body(const struct node *loop)
{
	if (loop->nkids == 0)
		return NULL;
	return loop->kind == CXCursor_DoStmt ? loop->kids[0] : loop->kids[loop->nkids - 1];
}

/* Whether every item still running reaches n whenever one does, as far as the
 * statements between n and `upto` (NULL: the function) decide it. */
static bool control_uniform(const struct uniform *u, struct node *n, const struct node *upto)
{
	for (struct node *child = n, *p = n->parent; p && p != upto; child = p, p = p->parent) {
		struct node *cond = NULL;
		bool repeats = false;
		switch (p->kind) {
		case CXCursor_IfStmt:
		case CXCursor_SwitchStmt:
			cond = p->nkids > 1 && child != p->kids[0] ? p->kids[0] : NULL;
			repeats = p->kind == CXCursor_SwitchStmt;
			break;
		case CXCursor_WhileStmt:
			cond = p->nkids == 2 ? p->kids[0] : NULL;
			repeats = true;
			break;
		case CXCursor_DoStmt:
			cond = p->nkids == 2 ? p->kids[1] : NULL;
			repeats = true;
			break;
		case CXCursor_ForStmt: {
			unsigned init_end;
			cond = srctree_for_condition(u->text, p, &init_end);
			if (child->end <= init_end)
				continue;
			repeats = true;
			break;
		}
		case CXCursor_ConditionalOperator:
			cond = p->nkids == 3 && child != p->kids[0] ? p->kids[0] : NULL;
			break;
		case CXCursor_BinaryOperator: {
			char *op = srctree_operator(u->text, p);
			bool lazy = strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;
			free(op);
			cond = lazy && p->nkids == 2 && child == p->kids[1] ? p->kids[0] : NULL;
			break;
		}
		default:
			continue;
		}
		if (cond && !uniform_expr(u, cond))
			return false;
		/* A continue skips the rest of the body, not a loop's header. */
		bool continues = !srctree_is_loop(p->kind) || child == loop_body(p);
		if (repeats && !exits_uniform(u, p, p, continues, false))
			return false;
	}
	return true;
}

static bool mark_varying(struct uniform *u, long v)
{
	if (v < 0 || u->varying[v])
		return false;
	u->varying[v] = true;
	return true;
}

/* Marks v varying unless the write of `value` to it at node `at` is uniform; returns
 * whether it changed a mark. */
static bool judge_write(struct uniform *u, long v, struct node *value, struct node *at)
{
	if (v < 0 || u->varying[v])
		return false;
	if ((value == NULL || uniform_expr(u, value)) && control_uniform(u, at, NULL))
		return false;
	return mark_varying(u, v);
}

/* The variable under a target's members and subscripts: s in s.x, a in a[i]; -1 where
 * there is none. */
static long base_var(const struct uniform *u, struct node *n)
{
	n = srctree_unwrapped(n);
	while (n && (n->kind == CXCursor_MemberRefExpr || n->kind == CXCursor_ArraySubscriptExpr) &&
	       n->nkids >= 1)
		n = srctree_unwrapped(n->kids[0]);
	return referenced_var(u, n);
}

/* A write of `value` (NULL: ++ or --) to `target` at node `at`: judged where the target
 * is a whole variable; a write to part of one (s.x, a[i]), or through a pointer one
 * holds (p[i]), makes that variable varying, which is too careful for the pointer. */
static bool judge_target(struct uniform *u, struct node *target, struct node *value,
			 struct node *at)
{
	long v = referenced_var(u, target);
	return v >= 0 ? judge_write(u, v, value, at) : mark_varying(u, base_var(u, target));
}

/* One pass over n's writes; returns whether a mark changed. */
static bool judge_writes(struct uniform *u, struct node *n)
{
	bool changed = false;
	if (n->kind == CXCursor_VarDecl) {
		long v = var_index(u, n->cursor);
		struct node *init = n->nkids ? n->kids[n->nkids - 1] : NULL;
		if (init && is_expression(init->kind))
			changed |= judge_write(u, v, init, n);
	} else if (n->kind == CXCursor_BinaryOperator ||
		   n->kind == CXCursor_CompoundAssignOperator) {
		char *op = srctree_operator(u->text, n);
		bool assigns = n->kind == CXCursor_CompoundAssignOperator || strcmp(op, "=") == 0;
		if (assigns && n->nkids == 2)
			changed |= judge_target(u, n->kids[0], n->kids[1], n);
		free(op);
	} else if (n->kind == CXCursor_UnaryOperator && n->nkids == 1) {
		char *op = srctree_operator(u->text, n);
		if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
			changed |= judge_target(u, n->kids[0], NULL, n);
		else if (strcmp(op, "&") == 0)
			changed |= mark_varying(u, base_var(u, n->kids[0]));
		free(op);
	}
	for (size_t i = 0; i < n->nkids; i++)
		changed |= judge_writes(u, n->kids[i]);
	return changed;
}

/* Gathers the variables n declares: scalars and pointers in private memory only. */
static void gather(struct uniform *u, struct node *n)
{
	if (n->kind == CXCursor_VarDecl) {
		/* A pointer's own space is after its last '*': a private pointer to local
		 * memory, or to a struct, is a private scalar. */
		const char *star = strrchr(n->type, '*');
		bool scalar = !strchr(n->type, '[') && !strstr(star ? star : n->type, "__local") &&
			      (star || !strstr(n->type, "struct"));
		add_var(u, n->cursor, !scalar);
	} else if (n->kind == CXCursor_GotoStmt || n->kind == CXCursor_IndirectGotoStmt) {
		u->any_goto = true;
	}
	for (size_t i = 0; i < n->nkids; i++)
		gather(u, n->kids[i]);
}

struct uniform *uniform_analyse(const struct srctext *text, struct node *root, bool kernel)
{
	struct uniform *u = xcalloc(1, sizeof *u);
	u->text = text;
	for (size_t i = 0; i < root->nkids; i++)
		if (root->kids[i]->kind == CXCursor_ParmDecl)
			add_var(u, root->kids[i]->cursor, !kernel);
	for (size_t i = 0; i < root->nkids; i++)
		if (root->kids[i]->kind != CXCursor_ParmDecl)
			gather(u, root->kids[i]);
	while (judge_writes(u, root))
		;
	return u;
}

void uniform_free(struct uniform *u)
{
	if (u == NULL)
		return;
	free(u->vars);
	free(u->varying);
	free(u);
}

#endif
