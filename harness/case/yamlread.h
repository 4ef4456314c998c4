/* yamlread.h - reading a YAML document with libfyaml into a model, reporting every
 * mistake as file:line:col at the node that holds it. Case files and assignments share
 * these helpers, so both speak the same way about the same mistake. */
#ifndef CLH_YAMLREAD_H
#define CLH_YAMLREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "case/expr.h"
#include "case/shape.h"

struct fy_node;
struct fy_document;

/* 1-based line and column in the file; 0 when unknown. */
struct src_pos {
	int line;
	int col;
};

/* An expression with the position of its first character in the file. */
struct pexpr {
	struct expr *expr;
	struct src_pos pos;
};

/* A key reject_unknown_keys offered for a misspelt one in `map`: its absence is that
 * same mistake, already reported. */
struct yr_suggestion {
	struct fy_node *map;
	const char *key;
};

struct yaml_reader {
	const char *path; /* names the file in diagnostics */
	struct diag_list *diags;
	size_t errors;
	struct yr_suggestion *suggestions;
	size_t nsuggestions;
	unsigned names_used; /* every name the expressions read so far use (enum expr_name) */
	char *source;	     /* the file's text, which the document points into */
};

/* Parses the file at r->path, or `text` where not NULL, as a YAML document. Returns it
 * (the caller destroys it), or NULL after reporting why; `what` names the file in that
 * report ("case file"). */
struct fy_document *yr_open(struct yaml_reader *r, const char *text, const char *what);
/* Frees what reading kept, after the document is destroyed; the diagnostics stay with
 * their list. */
void yr_finish(struct yaml_reader *r);

void yr_error(struct yaml_reader *r, struct src_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The position of a node's first character. libfyaml 0.7 marks tokens, not collections,
 * so a collection is placed at its first entry; an empty one at `fallback`. */
struct src_pos yr_pos(struct fy_node *node, struct src_pos fallback);
/* "nothing", "a mapping", "a list" or "a scalar", for messages. */
const char *yr_kind(struct fy_node *node);
/* The scalar's text as a new string, or NULL after reporting what was expected. */
char *yr_scalar(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what);
/* Reports every key of `map` not in the NULL-terminated `allowed` list, suggesting the
 * nearest allowed key. Returns how many it reported. */
size_t yr_reject_unknown_keys(struct yaml_reader *r, struct fy_node *map, const char *where,
			      const char *const *allowed);
struct fy_node *yr_get(struct fy_node *map, const char *key);
/* Whether `key` is missing from `map` only because it was misspelt there, which
 * yr_reject_unknown_keys has already reported. */
bool yr_misspelt(const struct yaml_reader *r, struct fy_node *map, const char *key);
/* Where the value of `key` in `map` is, or the map's position when the key is absent. */
struct src_pos yr_key_pos(struct fy_node *map, const char *key, struct src_pos fallback);
bool yr_require_mapping(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
			const char *what);
/* A copy of an expression, parsed again from its text. */
struct pexpr pexpr_copy(const struct pexpr *pe);
/* Parses an expression node. `names` are the names it may use (enum expr_name bits). */
bool yr_pexpr(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	      unsigned names, struct pexpr *out);
/* yr_scalar and yr_pexpr of the value under `key`, silent when the key is missing
 * because it was misspelt. */
char *yr_scalar_at(struct yaml_reader *r, struct fy_node *map, const char *key, struct src_pos at,
		   const char *what);
bool yr_pexpr_at(struct yaml_reader *r, struct fy_node *map, const char *key, struct src_pos at,
		 const char *what, unsigned names, struct pexpr *out);
bool yr_number(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	       double *out);
bool yr_bool(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	     bool *out);
/* One constant positive size into *out; `subject` names it where it is not positive
 * ("every entry of sizes"). Returns false after reporting. */
bool yr_size(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	     const char *subject, long long *out);
/* One shape: a size (1024, a 1-D shape) or a list of one to three ([1024, 768]). Returns
 * false after reporting. */
bool yr_shape(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
	      struct shape *out);
/* A non-empty list of shapes, appended to *out: [256, 1000] or [[64, 64], [128, 32]]. */
void yr_shape_list(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
		   struct shape **out, size_t *count);
/* One expression, or a list of one to three (global: N, global: [N, M]), one a dimension
 * into out[]; returns how many, 0 after reporting. */
unsigned yr_pexpr_dims(struct yaml_reader *r, struct fy_node *node, struct src_pos at,
		       const char *what, unsigned names, struct pexpr out[SHAPE_MAX_DIMS]);
/* Whole seconds from 1 to max, into *out; left alone after an error. */
void yr_seconds(struct yaml_reader *r, struct fy_node *node, struct src_pos at, const char *what,
		unsigned max, unsigned *out);

#endif
