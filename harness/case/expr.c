/* expr.c - size expressions over N, L, CU and I: a recursive-descent parser and evaluator. */
#include "config.h"

#include "case/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

enum op {
	OP_NUMBER,
	OP_NAME,
	OP_NEG,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_MIN,
	OP_MAX,
	OP_CEILDIV,
	OP_POW,
	OP_LOG2,
};

/* How deep an expression may nest, counting parentheses, calls, unary minus and the
 * operands of a chain of binary operators alike. Parsing, evaluating and freeing all
 * recurse by this depth, so without a limit a long enough count in a case file ends the
 * harness with a stack overflow; no launch shape needs more than a handful. */
enum { EXPR_MAX_DEPTH = 64 };

struct node {
	enum op op;
	long long value;     /* OP_NUMBER */
	enum expr_name name; /* OP_NAME */
	struct node *lhs, *rhs;
	int offset; /* where the operator, call or operand starts */
	int depth;  /* 1 for a leaf; one more than its deeper operand otherwise */
};

struct expr {
	char *text;
	struct node *root;
	unsigned names;
};

struct parser {
	const char *text;
	int pos;
	struct expr_error *err;
	unsigned names;
	int nesting; /* parentheses, calls and unary minus open at pos */
};

static const struct {
	const char *name;
	enum op op;
	int arity;
} functions[] = {
	{ "min", OP_MIN, 2 }, { "max", OP_MAX, 2 },   { "ceildiv", OP_CEILDIV, 2 },
	{ "pow", OP_POW, 2 }, { "log2", OP_LOG2, 1 },
};

static const struct {
	const char *name;
	enum expr_name bit;
} names[] = {
	{ "N", EXPR_N },   { "M", EXPR_M },   { "K", EXPR_K },	 { "L", EXPR_L },
	{ "LY", EXPR_LY }, { "LZ", EXPR_LZ }, { "CU", EXPR_CU }, { "I", EXPR_I },
};

const char *expr_name_text(enum expr_name name)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].bit == name)
			return names[i].name;
	return "?";
}

static void node_free(struct node *n)
{
	if (n == NULL)
		return;
	node_free(n->lhs);
	node_free(n->rhs);
	free(n);
}

static struct node *node_new(enum op op, int offset, struct node *lhs, struct node *rhs)
{
	struct node *n = xcalloc(1, sizeof *n);
	n->op = op;
	n->offset = offset;
	n->lhs = lhs;
	n->rhs = rhs;
	int below = lhs ? lhs->depth : 0;
	if (rhs && rhs->depth > below)
		below = rhs->depth;
	n->depth = below + 1;
	return n;
}

static int fail(struct expr_error *err, int offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct expr_error *err, int offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err->offset = offset;
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)p->text[p->pos]))
		p->pos++;
}

static struct node *parse_sum(struct parser *p);

static struct node *expected(struct parser *p, const char *what)
{
	if (p->text[p->pos] == '\0')
		fail(p->err, p->pos, "expected %s, found the end of the expression", what);
	else
		fail(p->err, p->pos, "expected %s, found '%c'", what, p->text[p->pos]);
	return NULL;
}

/* Takes a node the parser just built, or fails when it makes the tree too deep. */
static struct node *within_depth(struct parser *p, struct node *n)
{
	if (n == NULL || n->depth <= EXPR_MAX_DEPTH)
		return n;
	fail(p->err, n->offset, "expression nested more than %d deep", EXPR_MAX_DEPTH);
	node_free(n);
	return NULL;
}

/* Enters a parenthesis, call or unary minus at `at`; false (with the error set) when that
 * opens more than EXPR_MAX_DEPTH at once, before the recursion could exhaust the stack. */
static bool enter(struct parser *p, int at)
{
	if (p->nesting >= EXPR_MAX_DEPTH) {
		fail(p->err, at, "expression nested more than %d deep", EXPR_MAX_DEPTH);
		return false;
	}
	p->nesting++;
	return true;
}

static struct node *parse_call(struct parser *p, int start, const char *word, size_t len)
{
	for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++) {
		if (strlen(functions[f].name) != len || strncmp(functions[f].name, word, len) != 0)
			continue;
		if (!enter(p, start))
			return NULL;
		p->pos++; /* '(' */
		struct node *args[2] = { NULL, NULL };
		for (int a = 0; a < functions[f].arity; a++) {
			if (a > 0) {
				skip_space(p);
				if (p->text[p->pos] != ',') {
					node_free(args[0]);
					return expected(p, "',' between arguments");
				}
				p->pos++;
			}
			args[a] = parse_sum(p);
			if (args[a] == NULL) {
				node_free(args[0]);
				return NULL;
			}
		}
		skip_space(p);
		if (p->text[p->pos] != ')') {
			node_free(args[0]);
			node_free(args[1]);
			return expected(p, functions[f].arity == 1 ? "')' after the argument"
								   : "')' after the arguments");
		}
		p->pos++;
		p->nesting--;
		return within_depth(p, node_new(functions[f].op, start, args[0], args[1]));
	}
	fail(p->err, start, "unknown function '%.*s' (known: min, max, ceildiv, pow, log2)",
	     (int)len, word);
	return NULL;
}

static struct node *parse_primary(struct parser *p)
{
	skip_space(p);
	int start = p->pos;
	char c = p->text[p->pos];

	if (isdigit((unsigned char)c)) {
		errno = 0;
		char *end;
		long long v = strtoll(p->text + p->pos, &end, 10);
		if (errno == ERANGE) {
			fail(p->err, start, "number too large");
			return NULL;
		}
		p->pos = (int)(end - p->text);
		if (isalpha((unsigned char)p->text[p->pos]) || p->text[p->pos] == '.')
			return expected(p, "an operator after the number");
		struct node *n = node_new(OP_NUMBER, start, NULL, NULL);
		n->value = v;
		return n;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		while (isalnum((unsigned char)p->text[p->pos]) || p->text[p->pos] == '_')
			p->pos++;
		const char *word = p->text + start;
		size_t len = (size_t)(p->pos - start);
		skip_space(p);
		if (p->text[p->pos] == '(')
			return parse_call(p, start, word, len);
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			if (strlen(names[i].name) == len &&
			    strncmp(names[i].name, word, len) == 0) {
				struct node *n = node_new(OP_NAME, start, NULL, NULL);
				n->name = names[i].bit;
				p->names |= names[i].bit;
				return n;
			}
		}
		fail(p->err, start, "unknown name '%.*s' (known: N, M, K, L, LY, LZ, CU, I)",
		     (int)len, word);
		return NULL;
	}
	if (c == '(') {
		if (!enter(p, start))
			return NULL;
		p->pos++;
		struct node *inner = parse_sum(p);
		if (inner == NULL)
			return NULL;
		skip_space(p);
		if (p->text[p->pos] != ')') {
			node_free(inner);
			return expected(p, "')'");
		}
		p->pos++;
		p->nesting--;
		return inner;
	}
	if (c == '-') {
		if (!enter(p, start))
			return NULL;
		p->pos++;
		struct node *operand = parse_primary(p);
		p->nesting--;
		return operand ? within_depth(p, node_new(OP_NEG, start, operand, NULL)) : NULL;
	}
	return expected(p, "a number, a name or '('");
}

static struct node *parse_product(struct parser *p)
{
	struct node *lhs = parse_primary(p);
	while (lhs) {
		skip_space(p);
		char c = p->text[p->pos];
		enum op op = c == '*' ? OP_MUL : c == '/' ? OP_DIV : c == '%' ? OP_MOD : OP_NUMBER;
		if (op == OP_NUMBER)
			break;
		int at = p->pos++;
		struct node *rhs = parse_primary(p);
		if (rhs == NULL) {
			node_free(lhs);
			return NULL;
		}
		lhs = within_depth(p, node_new(op, at, lhs, rhs));
	}
	return lhs;
}

static struct node *parse_sum(struct parser *p)
{
	struct node *lhs = parse_product(p);
	while (lhs) {
		skip_space(p);
		char c = p->text[p->pos];
		if (c != '+' && c != '-')
			break;
		int at = p->pos++;
		struct node *rhs = parse_product(p);
		if (rhs == NULL) {
			node_free(lhs);
			return NULL;
		}
		lhs = within_depth(p, node_new(c == '+' ? OP_ADD : OP_SUB, at, lhs, rhs));
	}
	return lhs;
}

int expr_parse(const char *text, struct expr **out, struct expr_error *err)
{
	struct parser p = { .text = text, .pos = 0, .err = err, .names = 0, .nesting = 0 };
	struct node *root = parse_sum(&p);
	if (root == NULL)
		return -1;
	skip_space(&p);
	if (text[p.pos] != '\0') {
		node_free(root);
		fail(err, p.pos, "unexpected '%c' after the expression", text[p.pos]);
		return -1;
	}
	struct expr *e = xcalloc(1, sizeof *e);
	e->text = xstrdup(text);
	e->root = root;
	e->names = p.names;
	*out = e;
	return 0;
}

static int eval(const struct node *n, const struct expr_env *env, long long *v,
		struct expr_error *err)
{
	long long a = 0, b = 0;
	if (n->lhs && eval(n->lhs, env, &a, err) < 0)
		return -1;
	if (n->rhs && eval(n->rhs, env, &b, err) < 0)
		return -1;

	switch (n->op) {
	case OP_NUMBER:
		*v = n->value;
		return 0;
	case OP_NAME:
		switch ((enum expr_name)n->name) {
		case EXPR_N:
			*v = env->size[0];
			break;
		case EXPR_M:
			*v = env->size[1];
			break;
		case EXPR_K:
			*v = env->size[2];
			break;
		case EXPR_L:
			*v = env->local[0];
			break;
		case EXPR_LY:
			*v = env->local[1];
			break;
		case EXPR_LZ:
			*v = env->local[2];
			break;
		case EXPR_CU:
			*v = env->cu;
			break;
		default:
			*v = env->i;
			break; /* EXPR_I */
		}
		return 0;
	case OP_NEG:
		if (__builtin_sub_overflow(0LL, a, v))
			return fail(err, n->offset, "overflow negating %lld", a);
		return 0;
	case OP_ADD:
		if (__builtin_add_overflow(a, b, v))
			return fail(err, n->offset, "overflow: %lld + %lld", a, b);
		return 0;
	case OP_SUB:
		if (__builtin_sub_overflow(a, b, v))
			return fail(err, n->offset, "overflow: %lld - %lld", a, b);
		return 0;
	case OP_MUL:
		if (__builtin_mul_overflow(a, b, v))
			return fail(err, n->offset, "overflow: %lld * %lld", a, b);
		return 0;
	case OP_DIV:
	case OP_MOD:
		if (b == 0)
			return fail(err, n->offset, "division by zero: %lld %c 0", a,
				    n->op == OP_DIV ? '/' : '%');
		if (a == -__LONG_LONG_MAX__ - 1 && b == -1)
			return fail(err, n->offset, "overflow dividing %lld by -1", a);
		*v = n->op == OP_DIV ? a / b : a % b;
		return 0;
	case OP_MIN:
		*v = a < b ? a : b;
		return 0;
	case OP_MAX:
		*v = a > b ? a : b;
		return 0;
	case OP_CEILDIV:
		if (b <= 0)
			return fail(
				err, n->offset,
				"division by zero: ceildiv(%lld, %lld) needs a positive divisor", a,
				b);
		/* ceil(a / b) for either sign of a: C division truncates towards zero. */
		*v = a / b + (a % b > 0);
		return 0;
	case OP_POW: {
		if (b < 0)
			return fail(err, n->offset, "pow(%lld, %lld): negative exponent", a, b);
		/* Bases 0, 1 and -1 never overflow, whatever the exponent; any other base
		 * overflows within 63 multiplications, so the loop is short. */
		if (a == 0 || a == 1) {
			*v = b == 0 ? 1 : a;
			return 0;
		}
		if (a == -1) {
			*v = b % 2 ? -1 : 1;
			return 0;
		}
		long long r = 1;
		for (long long k = 0; k < b; k++)
			if (__builtin_mul_overflow(r, a, &r))
				return fail(err, n->offset, "overflow: pow(%lld, %lld)", a, b);
		*v = r;
		return 0;
	}
	case OP_LOG2:
		if (a <= 0)
			return fail(err, n->offset, "log2(%lld): the argument must be positive", a);
		*v = expr_ceil_log2(a);
		return 0;
	}
	return fail(err, n->offset, "internal error: unknown operator");
}

long long expr_ceil_log2(long long a)
{
	long long r = 0;
	while (r < 63 && (1LL << r) < a)
		r++;
	return r;
}

int expr_eval(const struct expr *e, const struct expr_env *env, long long *value,
	      struct expr_error *err)
{
	return eval(e->root, env, value, err);
}

unsigned expr_names(const struct expr *e)
{
	return e->names;
}

const char *expr_text(const struct expr *e)
{
	return e->text;
}

void expr_free(struct expr *e)
{
	if (e == NULL)
		return;
	node_free(e->root);
	free(e->text);
	free(e);
}
