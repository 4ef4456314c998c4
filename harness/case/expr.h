/* expr.h - size expressions over N, M, K, L, LY, LZ, CU and I: the launch shapes and
 * counts of a case. */
#ifndef CLH_EXPR_H
#define CLH_EXPR_H

#include <stdbool.h>

/* The names an expression may use, as bits of expr_names(). */
enum expr_name {
	EXPR_N = 1 << 0,  /* problem size: one entry of the case's sizes, dimension 0 */
	EXPR_L = 1 << 1,  /* work-group size: one entry of the case's local list, dimension 0 */
	EXPR_CU = 1 << 2, /* the device's compute units */
	EXPR_I = 1 << 3,  /* the iteration of a repeated launch step, from 0 */
	EXPR_M = 1 << 4,  /* the size's dimension 1 (1 for a 1-D size) */
	EXPR_K = 1 << 5,  /* the size's dimension 2 */
	EXPR_LY = 1 << 6, /* the work-group size's dimension 1 */
	EXPR_LZ = 1 << 7, /* the work-group size's dimension 2 */
	/* The names of a run's size and work-group shape. */
	EXPR_SHAPE = EXPR_N | EXPR_M | EXPR_K | EXPR_L | EXPR_LY | EXPR_LZ,
};

/* size[] holds N, M, K and local[] L, LY, LZ. */
struct expr_env {
	long long size[3];
	long long local[3];
	long long cu;
	long long i;
};

/* The spelling of one name bit ("N", "LY"). */
const char *expr_name_text(enum expr_name name);

/* Where an expression went wrong: offset is a byte offset into its text. */
struct expr_error {
	int offset;
	char message[200];
};

struct expr;

/* Parses integers, + - * / % ( ), unary minus, min(a, b), max(a, b), ceildiv(a, b),
 * pow(a, b), log2(a) (rounded up) and the names N, M, K, L, LY, LZ, CU, I. On success stores a new
 * expression in *out (the caller frees it with expr_free) and returns 0; on failure
 * fills err and returns -1. */
int expr_parse(const char *text, struct expr **out, struct expr_error *err);

/* Evaluates with the given names. Division by zero, overflow and out-of-domain calls
 * fill err (offset of the operator or call at fault) and return -1. */
int expr_eval(const struct expr *e, const struct expr_env *env, long long *value,
	      struct expr_error *err);

/* ceil(log2(a)) for a >= 1, as the expression function log2 gives it. */
long long expr_ceil_log2(long long a);

/* The names the expression uses, as an OR of enum expr_name. */
unsigned expr_names(const struct expr *e);
/* The text the expression was parsed from. */
const char *expr_text(const struct expr *e);
void expr_free(struct expr *e);

#endif
