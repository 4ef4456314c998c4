/* mutsites.h - where the classic GPU mistakes can be seeded in a kernel source, found in
 * its syntax by libclang (the kernel parsed as OpenCL C with the program's build
 * options), never by matching text: each barrier, fence flag, atomic, relational bound,
 * array index, work-item function, guarding `if` and reduction or scan loop step, and
 * for each the mutant text that seeds one mistake there. */
#ifndef CLH_MUTSITES_H
#define CLH_MUTSITES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/* The operators, each a family of mistakes; --operators names them. */
enum mut_operator {
	MUT_BARRIER, /* a barrier removed */
	MUT_FENCE,   /* a fence's flags: local to global, global to local, one of both dropped */
	MUT_ATOMIC,  /* an atomic read-modify-write in its plain form */
	MUT_BOUND,   /* a relational bound moved by one: < and <=, > and >= */
	MUT_INDEX,   /* an array index off by one, +1 and -1 */
	MUT_ID,	     /* get_local_id and get_global_id swapped, get_group_id for either */
	MUT_GUARD,   /* a guarding if (one without else) removed */
	MUT_STEP,    /* a loop's step: halving to quartering, doubling to tripling */
	MUT_EMPTY,   /* a kernel's body emptied: the submission that does nothing */
	MUT_WRITE,   /* a write to a global buffer removed: an output never written */
	MUT_LOCKSTEP, /* a barrier taken only by work-groups of more than 32 items, as if
			 those of a warp's size ran in lock-step */
	MUT_RETURN,   /* a guard made an early return before a later barrier */
	MUT_OPERATORS
};

/* The operator's name ("barrier"), as --operators and reports give it. */
const char *mut_operator_name(enum mut_operator op);
/* Parses a comma-separated list of operator names into bits (1u << op); -1 with *why
 * naming the unknown one (the caller frees it). */
int mut_operators_parse(const char *list, unsigned *bits, char **why);
/* "barrier, fence, ..." for --help and errors. */
const char *mut_operator_names(void);

/* One mistake seeded at one place: the bytes [start, end) of the source replaced. */
struct mutation {
	enum mut_operator op;
	int line, col;	   /* where the replaced text starts */
	size_t start, end; /* byte offsets in the source */
	char *replacement;
	char *what; /* "barrier(CLK_LOCAL_MEM_FENCE) removed", "< made <=" */
};

struct mutation_list {
	struct mutation *items;
	size_t count;
};

/* Whether this build can find mutation sites (it was built with libclang). */
bool mutsites_available(void);
/* The operators --operators takes by default: all. */
#define MUT_ALL_OPERATORS ((1u << MUT_OPERATORS) - 1)

/* Finds every mutation of the operators in `ops` (bits) in the file at `path`, parsed
 * with the program's build `options`, in source order: in the kernels named in `kernels`
 * (nkernels of them; none: every kernel) and in every function that is no kernel, which
 * they may call; another kernel of the file is code the subject never runs. Returns 0, or
 * -1 with clang's errors at their lines in diags (no mutations then). */
int mutsites_find(const char *path, const char *options, unsigned ops,
		  char *const *kernels, size_t nkernels, struct mutation_list *out,
		  struct diag_list *diags);
/* The source text with mutation m applied; the caller frees it. */
char *mutation_apply(const char *source, size_t len, const struct mutation *m);
void mutation_list_free(struct mutation_list *l);

#endif
