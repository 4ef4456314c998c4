/* case_load.c - reads a YAML case file with libfyaml into the case model, reporting every
 * mistake at the node that holds it. */
#include "config.h"

#include <errno.h>
#include <libfyaml.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "plan.h"
#include "testcase.h"
#include "util.h"

/* A key that reject_unknown_keys offered for a misspelt one in `map`: its absence is
 * that same mistake, already reported. */
struct suggestion {
	struct fy_node *map;
	const char *key;
};

struct loader {
	const char *path;
	struct diag_list *diags;
	struct test_case *tc;
	size_t errors;
	struct suggestion *suggestions;
	size_t nsuggestions;
	struct fy_node *root;
	struct fy_node **unparsed; /* arguments that failed: their names are not new errors */
	size_t nunparsed;
	unsigned names_used; /* every name any expression of the case uses (enum expr_name) */
};

/* Whether `name` belongs to an argument that failed to parse and was reported then. */
static bool unparsed_name(const struct loader *ld, const char *name)
{
	for (size_t i = 0; i < ld->nunparsed; i++) {
		struct fy_node *n =
			fy_node_mapping_lookup_by_string(ld->unparsed[i], "name", FY_NT);
		size_t len;
		const char *text = n && fy_node_is_scalar(n) ? fy_node_get_scalar(n, &len) : NULL;
		if (text && strlen(name) == len && strncmp(text, name, len) == 0)
			return true;
	}
	return false;
}

static void error_at(struct loader *ld, struct src_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error_at(struct loader *ld, struct src_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	diag_add(ld->diags, DIAG_ERROR, ld->path, pos.line, pos.col, "%s", msg);
	free(msg);
	ld->errors++;
}

/* The position of a node's first character. libfyaml 0.7 marks tokens, not collections,
 * so a collection is placed at its first entry; an empty one at `fallback`. */
static struct src_pos node_pos(struct fy_node *node, struct src_pos fallback)
{
	if (node == NULL)
		return fallback;
	if (fy_node_is_scalar(node)) {
		struct fy_token *tok = fy_node_get_scalar_token(node);
		const struct fy_mark *mark = tok ? fy_token_start_mark(tok) : NULL;
		return mark ? (struct src_pos){ mark->line + 1, mark->column + 1 } : fallback;
	}
	void *iter = NULL;
	if (fy_node_is_mapping(node)) {
		struct fy_node_pair *pair = fy_node_mapping_iterate(node, &iter);
		return pair ? node_pos(fy_node_pair_key(pair), fallback) : fallback;
	}
	if (fy_node_is_sequence(node))
		return node_pos(fy_node_sequence_iterate(node, &iter), fallback);
	return fallback;
}

static const char *node_kind(struct fy_node *node)
{
	if (node == NULL || (fy_node_is_scalar(node) && fy_node_get_scalar_length(node) == 0 &&
			     fy_node_get_style(node) == FYNS_PLAIN))
		return "nothing";
	if (fy_node_is_mapping(node))
		return "a mapping";
	if (fy_node_is_sequence(node))
		return "a list";
	return "a scalar";
}

/* The scalar's text as a new string, or NULL after reporting what was expected. */
static char *scalar(struct loader *ld, struct fy_node *node, struct src_pos at, const char *what)
{
	if (node == NULL || !fy_node_is_scalar(node) || node_kind(node)[0] == 'n') {
		error_at(ld, node_pos(node, at), "expected %s, found %s", what, node_kind(node));
		return NULL;
	}
	size_t len;
	const char *text = fy_node_get_scalar(node, &len);
	return xstrndup(text, len);
}

/* More ')' than '(': the tail of an expression that YAML cut at a comma. */
static bool cut_at_comma(const char *text, int balance)
{
	for (const char *p = text; *p; p++)
		balance += (*p == '(') - (*p == ')');
	return balance != 0;
}

static const char comma_hint[] =
	"inside {...} or [...] a comma ends a value, so quote an expression that holds commas, "
	"e.g. count: 'ceildiv(N, L)'";

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 32 || lb > 32)
		return 99;
	size_t row[33];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Reports every key of `map` not in the NULL-terminated `allowed` list, suggesting the
 * nearest allowed key, since a typo in a key is the commonest mistake in a case file.
 * Returns how many it reported. */
static size_t reject_unknown_keys(struct loader *ld, struct fy_node *map, const char *where,
				  const char *const *allowed)
{
	size_t before = ld->errors;
	void *iter = NULL;
	struct fy_node_pair *pair;
	while ((pair = fy_node_mapping_iterate(map, &iter)) != NULL) {
		struct fy_node *key = fy_node_pair_key(pair);
		size_t len;
		const char *text =
			key && fy_node_is_scalar(key) ? fy_node_get_scalar(key, &len) : NULL;
		if (text == NULL) {
			error_at(ld, node_pos(key, (struct src_pos){ 0 }),
				 "keys in %s must be plain words", where);
			continue;
		}
		char *name = xstrndup(text, len);
		if (cut_at_comma(name, 0)) {
			error_at(ld, node_pos(key, (struct src_pos){ 0 }),
				 "'%s' is the end of an expression cut off at a comma: %s", name,
				 comma_hint);
			free(name);
			continue;
		}
		const char *nearest = NULL;
		size_t best = 3;
		bool known = false;
		for (const char *const *k = allowed; *k; k++) {
			if (strcmp(*k, name) == 0) {
				known = true;
				break;
			}
			size_t d = edit_distance(*k, name);
			if (d < best) {
				best = d;
				nearest = *k;
			}
		}
		if (!known) {
			struct strbuf keys = { 0 };
			for (const char *const *k = allowed; *k; k++)
				strbuf_printf(&keys, "%s%s", k == allowed ? "" : ", ", *k);
			if (nearest) {
				error_at(ld, node_pos(key, (struct src_pos){ 0 }),
					 "unknown key '%s' in %s; did you mean '%s'?", name, where,
					 nearest);
				ld->suggestions =
					xreallocarray(ld->suggestions, ld->nsuggestions + 1,
						      sizeof *ld->suggestions);
				ld->suggestions[ld->nsuggestions++] =
					(struct suggestion){ map, nearest };
			} else
				error_at(ld, node_pos(key, (struct src_pos){ 0 }),
					 "unknown key '%s' in %s (known keys: %s)", name, where,
					 keys.data);
			strbuf_free(&keys);
		}
		free(name);
	}
	return ld->errors - before;
}

static struct fy_node *get(struct fy_node *map, const char *key)
{
	return fy_node_mapping_lookup_by_string(map, key, FY_NT);
}

/* Whether `key` is missing from `map` only because it was misspelt there, which
 * reject_unknown_keys has already reported. */
static bool misspelt(const struct loader *ld, struct fy_node *map, const char *key)
{
	for (size_t i = 0; i < ld->nsuggestions; i++)
		if (ld->suggestions[i].map == map && strcmp(ld->suggestions[i].key, key) == 0)
			return true;
	return false;
}

/* Where the value of `key` in `map` is, or the map's position when the key is absent. */
static struct src_pos key_pos(struct fy_node *map, const char *key, struct src_pos fallback)
{
	void *iter = NULL;
	struct fy_node_pair *pair;
	while ((pair = fy_node_mapping_iterate(map, &iter)) != NULL) {
		struct fy_node *k = fy_node_pair_key(pair);
		size_t len;
		const char *text = k && fy_node_is_scalar(k) ? fy_node_get_scalar(k, &len) : NULL;
		if (text && strlen(key) == len && strncmp(text, key, len) == 0)
			return node_pos(k, fallback);
	}
	return node_pos(map, fallback);
}

static bool require_mapping(struct loader *ld, struct fy_node *node, struct src_pos at,
			    const char *what)
{
	if (node && fy_node_is_mapping(node))
		return true;
	error_at(ld, node_pos(node, at), "%s must be a mapping, found %s", what, node_kind(node));
	return false;
}

/* Parses an expression node. `names` are the names it may use (enum expr_name bits). */
static bool parse_pexpr(struct loader *ld, struct fy_node *node, struct src_pos at,
			const char *what, unsigned names, struct pexpr *out)
{
	char *text = scalar(ld, node, at, what);
	if (text == NULL)
		return false;
	struct src_pos pos = node_pos(node, at);
	enum fy_node_style style = fy_node_get_style(node);
	int quote = style == FYNS_SINGLE_QUOTED || style == FYNS_DOUBLE_QUOTED;
	struct expr_error err;
	struct expr *e;
	if (expr_parse(text, &e, &err) < 0) {
		error_at(ld, (struct src_pos){ pos.line, pos.col + quote + err.offset },
			 "in %s '%s': %s%s%s", what, text, err.message,
			 cut_at_comma(text, 0) && !quote ? "; " : "",
			 cut_at_comma(text, 0) && !quote ? comma_hint : "");
		free(text);
		return false;
	}
	unsigned extra = expr_names(e) & ~names;
	if (extra) {
		error_at(ld, pos, "%s '%s' uses %s, which %s", what, text,
			 extra & EXPR_I	   ? "I"
			 : extra & EXPR_CU ? "CU"
			 : extra & EXPR_L  ? "L"
					   : "N",
			 extra & EXPR_I ? "exists only in a step with `repeat`"
					: "has no value here");
		expr_free(e);
		free(text);
		return false;
	}
	free(text);
	ld->names_used |= expr_names(e);
	out->expr = e;
	out->pos = (struct src_pos){ pos.line, pos.col + quote };
	return true;
}

/* The scalar under `key` of `map`, as scalar() reads it; silent when the key is missing
 * because it was misspelt. */
static char *scalar_at(struct loader *ld, struct fy_node *map, const char *key, struct src_pos at,
		       const char *what)
{
	struct fy_node *node = get(map, key);
	if (node == NULL && misspelt(ld, map, key))
		return NULL;
	return scalar(ld, node, at, what);
}

/* The expression under `key` of `map`, as parse_pexpr() reads it; silent when the key is
 * missing because it was misspelt. */
static bool pexpr_at(struct loader *ld, struct fy_node *map, const char *key, struct src_pos at,
		     const char *what, unsigned names, struct pexpr *out)
{
	struct fy_node *node = get(map, key);
	if (node == NULL && misspelt(ld, map, key))
		return false;
	return parse_pexpr(ld, node, at, what, names, out);
}

static bool parse_number(struct loader *ld, struct fy_node *node, struct src_pos at,
			 const char *what, double *out)
{
	char *text = scalar(ld, node, at, what);
	if (text == NULL)
		return false;
	char *end;
	double v = strtod(text, &end);
	bool ok = end != text && *end == '\0' && isfinite(v);
	if (!ok)
		error_at(ld, node_pos(node, at), "%s must be a finite number, found '%s'", what,
			 text);
	free(text);
	*out = v;
	return ok;
}

static bool parse_bool(struct loader *ld, struct fy_node *node, struct src_pos at, const char *what,
		       bool *out)
{
	char *text = scalar(ld, node, at, what);
	if (text == NULL)
		return false;
	bool ok = true;
	if (strcmp(text, "true") == 0)
		*out = true;
	else if (strcmp(text, "false") == 0)
		*out = false;
	else {
		error_at(ld, node_pos(node, at), "%s must be true or false, found '%s'", what,
			 text);
		ok = false;
	}
	free(text);
	return ok;
}

static bool parse_type(struct loader *ld, struct fy_node *node, struct src_pos at, const char *what,
		       enum elem_type *out)
{
	char *text = scalar(ld, node, at, what);
	if (text == NULL)
		return false;
	bool ok = elem_type_parse(text, out) == 0;
	if (!ok)
		error_at(ld, node_pos(node, at),
			 "unknown element type '%s' for %s (known: int, uint, float)", text, what);
	free(text);
	return ok;
}

/* A list of constant positive sizes: `sizes`, `sim_sizes` or `local`. */
static void parse_size_list(struct loader *ld, struct fy_node *node, struct src_pos at,
			    const char *what, long long **out, size_t *count)
{
	if (node == NULL || !fy_node_is_sequence(node) || fy_node_sequence_item_count(node) == 0) {
		error_at(ld, node_pos(node, at),
			 "%s must be a non-empty list of sizes, like [256, 1000], found %s", what,
			 node_kind(node));
		return;
	}
	void *iter = NULL;
	struct fy_node *item;
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL) {
		struct pexpr pe = { 0 };
		if (!parse_pexpr(ld, item, at, what, 0, &pe))
			continue;
		long long v;
		struct expr_error err;
		if (expr_eval(pe.expr, &(struct expr_env){ 0 }, &v, &err) < 0)
			error_at(ld, (struct src_pos){ pe.pos.line, pe.pos.col + err.offset },
				 "in %s: %s", what, err.message);
		else if (v <= 0)
			error_at(ld, pe.pos, "every entry of %s must be positive, found %lld", what,
				 v);
		else {
			*out = xreallocarray(*out, *count + 1, sizeof **out);
			(*out)[(*count)++] = v;
		}
		expr_free(pe.expr);
	}
}

/* A seed: a whole number from 0 to 2^53, the range a YAML number holds exactly. */
static bool parse_seed(struct loader *ld, struct fy_node *node, struct src_pos at, uint64_t *out)
{
	double seed;
	if (!parse_number(ld, node, at, "seed", &seed))
		return false;
	if (seed < 0 || seed != floor(seed) || seed > 9007199254740992.0) {
		error_at(ld, node_pos(node, at),
			 "seed must be a whole number from 0 to 2^53, found %g", seed);
		return false;
	}
	*out = (uint64_t)seed;
	return true;
}

/* A case's time limit: whole seconds, 1 to 3600. A kernel that hangs on some devices
 * costs its case this much, not the run's default. */
static void parse_timeout(struct loader *ld, struct fy_node *node, struct src_pos at, unsigned *out)
{
	double seconds;
	if (!parse_number(ld, node, at, "timeout", &seconds))
		return;
	if (seconds < 1 || seconds > 3600 || seconds != floor(seconds)) {
		error_at(ld, node_pos(node, at),
			 "timeout must be whole seconds from 1 to 3600, found %g", seconds);
		return;
	}
	*out = (unsigned)seconds;
}

static void parse_init(struct loader *ld, struct fy_node *node, struct src_pos at,
		       struct buffer_decl *buf)
{
	static const char *const keys[] = { "fill", "iota", "random", "random_int", "seed", NULL };
	struct init_spec *init = &buf->init;
	init->pos = node_pos(node, at);
	init->seed = gen_buffer_seed(ld->tc->seed, buf->name);
	if (!require_mapping(ld, node, at, "init"))
		return;
	reject_unknown_keys(ld, node, "an init", keys);

	int kinds = 0;
	struct fy_node *v;
	if ((v = get(node, "fill")) != NULL) {
		kinds++;
		init->kind = INIT_FILL;
		parse_number(ld, v, init->pos, "the fill value", &init->lo);
	}
	if ((v = get(node, "iota")) != NULL) {
		kinds++;
		init->kind = INIT_IOTA;
		parse_number(ld, v, init->pos, "the iota start", &init->lo);
	}
	const char *random_key = get(node, "random") ? "random" : "random_int";
	if ((v = get(node, random_key)) != NULL) {
		kinds += get(node, "random") && get(node, "random_int") ? 2 : 1;
		init->kind = strcmp(random_key, "random") == 0 ? INIT_RANDOM : INIT_RANDOM_INT;
		if (!fy_node_is_sequence(v) || fy_node_sequence_item_count(v) != 2) {
			error_at(ld, node_pos(v, init->pos),
				 "%s takes a range [low, high], found %s", random_key,
				 node_kind(v));
		} else if (parse_number(ld, fy_node_sequence_get_by_index(v, 0), init->pos,
					"the low end", &init->lo) &&
			   parse_number(ld, fy_node_sequence_get_by_index(v, 1), init->pos,
					"the high end", &init->hi) &&
			   !(init->lo < init->hi)) {
			error_at(ld, node_pos(v, init->pos),
				 "%s range [%g, %g] is empty: the low end "
				 "must be below the high end",
				 random_key, init->lo, init->hi);
		}
	}
	if (kinds != 1)
		error_at(ld, init->pos,
			 "an init needs exactly one of fill, iota, random or random_int");

	bool integral = buf->type != ELEM_FLOAT || init->kind == INIT_RANDOM_INT;
	if (kinds == 1 && integral && init->kind != INIT_RANDOM &&
	    (init->lo != floor(init->lo) || init->hi != floor(init->hi)))
		error_at(ld, init->pos, "%s buffer '%s' needs whole numbers in its init",
			 elem_type_name(buf->type), buf->name);

	if ((v = get(node, "seed")) != NULL)
		parse_seed(ld, v, init->pos, &init->seed);
}

static bool find_buffer(const struct test_case *tc, const char *name, size_t *index)
{
	for (size_t i = 0; i < tc->nbuffers; i++) {
		if (strcmp(tc->buffers[i].name, name) == 0) {
			*index = i;
			return true;
		}
	}
	return false;
}

static void parse_arg(struct loader *ld, struct fy_node *node, struct src_pos at, unsigned names,
		      struct arg *arg)
{
	static const char *const buffer_keys[] = {
		"name", "buffer", "count", "init", "output", NULL
	};
	static const char *const use_keys[] = { "use", NULL };
	static const char *const local_keys[] = { "name", "local", "count", NULL };
	static const char *const scalar_keys[] = { "name", "scalar", "value", NULL };
	static const char *const any_keys[] = { "name",	 "buffer", "use",    "local", "scalar",
						"count", "init",   "output", "value", NULL };

	arg->pos = node_pos(node, at);
	if (!require_mapping(ld, node, at, "an argument"))
		return;
	int kinds = !!get(node, "buffer") + !!get(node, "use") + !!get(node, "local") +
		    !!get(node, "scalar");
	if (kinds != 1) {
		/* A misspelt kind key is reported as such; "needs one of" would only repeat it. */
		if (reject_unknown_keys(ld, node, "an argument", any_keys) == 0 || kinds > 1)
			error_at(ld, arg->pos,
				 "an argument needs exactly one of buffer, use, "
				 "local or scalar, found %d",
				 kinds);
		ld->unparsed = xreallocarray(ld->unparsed, ld->nunparsed + 1, sizeof *ld->unparsed);
		ld->unparsed[ld->nunparsed++] = node;
		return;
	}

	struct test_case *tc = ld->tc;
	struct fy_node *v;
	if ((v = get(node, "buffer")) != NULL) {
		reject_unknown_keys(ld, node, "a buffer argument", buffer_keys);
		struct buffer_decl buf = { .pos = arg->pos };
		buf.name = scalar_at(ld, node, "name", arg->pos, "a buffer name (name: ...)");
		if (buf.name == NULL)
			return;
		size_t existing;
		if (find_buffer(tc, buf.name, &existing)) {
			error_at(ld, node_pos(get(node, "name"), arg->pos),
				 "buffer '%s' is declared twice; a later "
				 "step uses it with {use: %s}",
				 buf.name, buf.name);
			free(buf.name);
			return;
		}
		parse_type(ld, v, arg->pos, "a buffer", &buf.type);
		pexpr_at(ld, node, "count", arg->pos, "the buffer's count", names, &buf.count);
		if ((v = get(node, "init")) != NULL)
			parse_init(ld, v, arg->pos, &buf);
		else
			buf.init = (struct init_spec){ .kind = INIT_POISON, .pos = arg->pos };
		if ((v = get(node, "output")) != NULL)
			parse_bool(ld, v, arg->pos, "output", &buf.output);
		tc->buffers = xreallocarray(tc->buffers, tc->nbuffers + 1, sizeof *tc->buffers);
		tc->buffers[tc->nbuffers] = buf;
		arg->kind = ARG_BUFFER;
		arg->buffer = tc->nbuffers++;
	} else if ((v = get(node, "use")) != NULL) {
		reject_unknown_keys(ld, node, "a use argument", use_keys);
		arg->kind = ARG_BUFFER;
		char *name = scalar(ld, v, arg->pos, "the name of a buffer declared earlier");
		if (name && !find_buffer(tc, name, &arg->buffer) && !unparsed_name(ld, name))
			error_at(ld, node_pos(v, arg->pos),
				 "no buffer named '%s' is declared before this argument", name);
		free(name);
	} else if ((v = get(node, "local")) != NULL) {
		reject_unknown_keys(ld, node, "a local argument", local_keys);
		arg->kind = ARG_LOCAL;
		parse_type(ld, v, arg->pos, "a local buffer", &arg->type);
		pexpr_at(ld, node, "count", arg->pos, "the local buffer's count", names,
			 &arg->count);
	} else {
		reject_unknown_keys(ld, node, "a scalar argument", scalar_keys);
		v = get(node, "scalar");
		arg->kind = ARG_SCALAR;
		parse_type(ld, v, arg->pos, "a scalar", &arg->type);
		pexpr_at(ld, node, "value", arg->pos, "the scalar's value", names, &arg->value);
	}
}

/* Finds a kernel file relative to the case file's folder or any folder above it, so a
 * catalogue works wherever it is installed and a user's case can sit beside its kernel.
 * The climb is lexical ("a/b/" -> "a/" -> "" -> "../") to keep reported paths short. */
static char *resolve_kernel(const char *case_path, const char *file)
{
	if (file[0] == '/')
		return access(file, R_OK) == 0 ? xstrdup(file) : NULL;
	char *dir = xstrdup(case_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	for (;;) {
		char *candidate = xasprintf("%s%s", dir, file);
		if (access(candidate, R_OK) == 0) {
			free(dir);
			return candidate;
		}
		free(candidate);
		char *real = realpath(*dir ? dir : ".", NULL);
		bool at_root = real == NULL || strcmp(real, "/") == 0;
		free(real);
		if (at_root)
			break;
		size_t len = strlen(dir);
		size_t start = len > 0 ? len - 1 : 0; /* the trailing '/' */
		while (start > 0 && dir[start - 1] != '/')
			start--;
		const char *last = dir + start;
		if (len == 0 || strncmp(last, "../", 3) == 0) {
			char *up = xasprintf("%s../", dir);
			free(dir);
			dir = up;
		} else {
			dir[start] = '\0';
		}
	}
	free(dir);
	return NULL;
}

static void parse_step(struct loader *ld, struct fy_node *node, struct src_pos at, bool top,
		       struct step *step)
{
	static const char *const step_keys[] = {
		"kernel", "global", "local", "repeat", "args", NULL
	};
	static const char *const kernel_keys[] = { "file", "name", NULL };

	if (!top) {
		if (!require_mapping(ld, node, at, "a step"))
			return;
		reject_unknown_keys(ld, node, "a step", step_keys);
	}
	struct src_pos pos = node_pos(node, at);
	unsigned names = EXPR_N | EXPR_L | EXPR_CU;

	struct fy_node *v = get(node, "repeat");
	if (!top && v != NULL && parse_pexpr(ld, v, pos, "repeat", names, &step->repeat))
		names |= EXPR_I;

	struct fy_node *kernel = get(node, "kernel");
	struct src_pos kpos = key_pos(node, "kernel", pos);
	if (kernel == NULL) {
		if (!misspelt(ld, node, "kernel"))
			error_at(ld, pos,
				 "missing key 'kernel': name the kernel as "
				 "{file: kernels/..., name: ...}");
	} else if (require_mapping(ld, kernel, kpos, "kernel")) {
		reject_unknown_keys(ld, kernel, "kernel", kernel_keys);
		step->file_pos = node_pos(get(kernel, "file"), kpos);
		step->name_pos = node_pos(get(kernel, "name"), kpos);
		step->kernel_file =
			scalar_at(ld, kernel, "file", kpos, "the kernel's file (file: ...)");
		step->kernel_name =
			scalar_at(ld, kernel, "name", kpos, "the kernel's name (name: ...)");
		if (step->kernel_file) {
			step->kernel_path = resolve_kernel(ld->path, step->kernel_file);
			if (step->kernel_path == NULL)
				error_at(ld, step->file_pos,
					 "kernel file '%s' not found beside the case file "
					 "or in any folder above it",
					 step->kernel_file);
		}
	}

	v = get(node, "global");
	if (v == NULL) {
		if (!misspelt(ld, node, "global"))
			error_at(ld, pos,
				 "missing key 'global': the global work size, e.g. global: N");
	} else {
		parse_pexpr(ld, v, pos, "global", names, &step->global);
	}
	if (!top && (v = get(node, "local")) != NULL)
		parse_pexpr(ld, v, pos, "the step's local size", names, &step->local);

	v = get(node, "args");
	step->args_pos = key_pos(node, "args", pos);
	if (v == NULL && misspelt(ld, node, "args"))
		return;
	if (v == NULL || !fy_node_is_sequence(v)) {
		error_at(ld, node_pos(v, pos),
			 "%s: args must be a list of the kernel's arguments in order, found %s",
			 v ? "wrong type" : "missing key 'args'", node_kind(v));
		return;
	}
	step->args_pos = node_pos(v, step->args_pos);
	step->nargs = fy_node_sequence_item_count(v);
	step->args = xcalloc(step->nargs, sizeof *step->args);
	void *iter = NULL;
	struct fy_node *item;
	for (size_t i = 0; (item = fy_node_sequence_iterate(v, &iter)) != NULL; i++)
		parse_arg(ld, item, step->args_pos, names, &step->args[i]);
}

static enum tolerance parse_tolerance(struct loader *ld, struct fy_node *node, struct src_pos at,
				      bool *given)
{
	*given = node != NULL;
	if (node == NULL)
		return TOL_EXACT;
	char *text = scalar(ld, node, at, "tolerance");
	enum tolerance t = TOL_EXACT;
	if (text == NULL)
		return t;
	if (strcmp(text, "reduction") == 0)
		t = TOL_REDUCTION;
	else if (strcmp(text, "unordered") == 0)
		t = TOL_UNORDERED;
	else if (strcmp(text, "exact") != 0)
		error_at(ld, node_pos(node, at),
			 "unknown tolerance '%s' (known: exact, reduction, unordered)", text);
	free(text);
	return t;
}

static void parse_check(struct loader *ld, struct fy_node *key, struct fy_node *node,
			struct check *check)
{
	static const char *const keys[] = { "reference", "of",	   "tolerance", "group", "shift",
					    "count",	 "serial", "partials",	NULL };
	struct test_case *tc = ld->tc;
	check->buffer = SIZE_MAX;
	check->pos = node_pos(key, (struct src_pos){ 0 });
	char *name = scalar(ld, key, check->pos, "an output buffer's name");
	if (name == NULL)
		return;
	if (!find_buffer(tc, name, &check->buffer)) {
		check->buffer = SIZE_MAX;
		if (!unparsed_name(ld, name))
			error_at(ld, check->pos, "check names '%s', but no buffer has that name",
				 name);
		free(name);
		return;
	}
	struct buffer_decl *out = &tc->buffers[check->buffer];
	if (!out->output)
		error_at(ld, check->pos,
			 "buffer '%s' is checked but not read back: add output: true to it", name);
	free(name);
	if (!require_mapping(ld, node, check->pos, "a check"))
		return;
	reject_unknown_keys(ld, node, "a check", keys);

	struct src_pos pos = check->pos;
	char *ref = scalar_at(ld, node, "reference", pos, "a reference (reference: ...)");
	if (ref) {
		check->ref = ref_lookup(ref);
		if (check->ref == NULL)
			error_at(ld, node_pos(get(node, "reference"), pos),
				 "unknown reference '%s' (known: %s)", ref, ref_names());
		free(ref);
	}
	if (check->ref == NULL)
		return;

	struct fy_node *of = get(node, "of");
	struct src_pos of_pos = node_pos(of, pos);
	size_t nof = of && fy_node_is_sequence(of) ? (size_t)fy_node_sequence_item_count(of) : 1;
	if (of == NULL && misspelt(ld, node, "of"))
		return;
	if (of == NULL || (int)nof != check->ref->inputs) {
		error_at(ld, of_pos, "reference %s takes %s", check->ref->name,
			 check->ref->inputs == 2 ? "two buffers: of: [a, b]"
						 : "one buffer: of: NAME");
		return;
	}
	for (size_t i = 0; i < nof; i++) {
		struct fy_node *item =
			fy_node_is_sequence(of) ? fy_node_sequence_get_by_index(of, (int)i) : of;
		char *in = scalar(ld, item, of_pos, "a buffer name");
		if (in == NULL)
			continue;
		if (!find_buffer(tc, in, &check->of[i])) {
			if (!unparsed_name(ld, in))
				error_at(ld, node_pos(item, of_pos),
					 "no buffer named '%s' to compute %s of", in,
					 check->ref->name);
		} else if (tc->buffers[check->of[i]].type != out->type)
			error_at(ld, node_pos(item, of_pos),
				 "'%s' holds %s but output '%s' holds %s", in,
				 elem_type_name(tc->buffers[check->of[i]].type), out->name,
				 elem_type_name(out->type));
		free(in);
	}

	unsigned names = EXPR_N | EXPR_L | EXPR_CU;
	struct fy_node *v;
	if ((v = get(node, "group")) != NULL) {
		if (check->ref->per_group)
			parse_pexpr(ld, v, pos, "group", names, &check->group);
		else
			error_at(ld, key_pos(node, "group", pos),
				 "group applies to per-group references only, not %s",
				 check->ref->name);
	}
	if ((v = get(node, "shift")) != NULL) {
		if (check->ref->shifted)
			parse_pexpr(ld, v, pos, "shift", names, &check->shift);
		else
			error_at(ld, key_pos(node, "shift", pos),
				 "shift applies to rotate only, not %s", check->ref->name);
	} else if (check->ref->shifted && !misspelt(ld, node, "shift")) {
		error_at(ld, pos, "reference %s needs shift: the k of y[i] = x[(i + k) %% n]",
			 check->ref->name);
	}
	if ((v = get(node, "count")) != NULL)
		parse_pexpr(ld, v, pos, "count", names, &check->count);

	bool given;
	struct src_pos tol_pos = key_pos(node, "tolerance", pos);
	check->tolerance_pos = tol_pos;
	check->tolerance = parse_tolerance(ld, get(node, "tolerance"), pos, &given);
	bool rounding = out->type == ELEM_FLOAT && check->ref->sums;
	if (rounding && !given && !misspelt(ld, node, "tolerance"))
		error_at(ld, pos,
			 "a float %s needs a tolerance: exact (small whole-number inputs), "
			 "reduction (a summation bound from serial and partials) or unordered",
			 check->ref->name);
	if (!rounding && check->tolerance != TOL_EXACT)
		error_at(ld, tol_pos,
			 "%s results of %s are compared exactly: use "
			 "tolerance: exact or leave it out",
			 elem_type_name(out->type), check->ref->name);
	const char *depth_keys[] = { "serial", "partials" };
	struct pexpr *depth[] = { &check->serial, &check->partials };
	for (int i = 0; i < 2; i++) {
		if ((v = get(node, depth_keys[i])) == NULL)
			continue;
		if (check->tolerance == TOL_REDUCTION)
			parse_pexpr(ld, v, pos, depth_keys[i], names, depth[i]);
		else
			error_at(ld, key_pos(node, depth_keys[i], pos),
				 "%s describes the summation order of tolerance: reduction only",
				 depth_keys[i]);
	}
}

/* The checks: one a buffer marked output. A case with no output buffer needs none: it
 * runs for what the simulator finds and for whether devices run it at all. */
static void parse_checks(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	struct test_case *tc = ld->tc;
	if (node == NULL && misspelt(ld, ld->root, "check"))
		return;
	if (node != NULL) {
		if (!require_mapping(ld, node, at, "check"))
			return;
		tc->checks = xcalloc((size_t)fy_node_mapping_item_count(node), sizeof *tc->checks);
		void *iter = NULL;
		struct fy_node_pair *pair;
		while ((pair = fy_node_mapping_iterate(node, &iter)) != NULL)
			parse_check(ld, fy_node_pair_key(pair), fy_node_pair_value(pair),
				    &tc->checks[tc->nchecks++]);
	}
	for (size_t b = 0; b < tc->nbuffers; b++) {
		if (!tc->buffers[b].output)
			continue;
		bool checked = false;
		for (size_t c = 0; c < tc->nchecks; c++)
			checked |= tc->checks[c].buffer == b;
		if (!checked)
			error_at(ld, tc->buffers[b].pos,
				 "output buffer '%s' has no check: add it "
				 "under check: with a reference",
				 tc->buffers[b].name);
	}
}

/* Resolves the case at every N of `sizes` and L of `locals`; returns false after adding
 * the first failure's diagnostics (the other shapes would repeat it). */
static bool validate_shapes(struct loader *ld, const long long *sizes, size_t nsizes,
			    const long long *locals, size_t nlocals)
{
	for (size_t s = 0; s < nsizes; s++) {
		for (size_t l = 0; l < nlocals; l++) {
			struct plan plan;
			struct diag_list found = { 0 };
			if (plan_build(ld->tc, sizes[s], locals[l], 1, &plan, &found) == 0) {
				plan_free(&plan);
				continue;
			}
			ld->errors += diag_error_count(&found);
			diag_list_move(ld->diags, &found);
			return false;
		}
	}
	return true;
}

/* Resolves the case at every listed N and L, devices' and simulator's, so a division by
 * zero or a count that is not positive is found when the case is loaded, not halfway
 * through a run. Cases whose expressions use CU wait for a device. */
static void validate_plans(struct loader *ld)
{
	struct test_case *tc = ld->tc;
	if (ld->names_used & EXPR_CU)
		return;
	if (validate_shapes(ld, tc->sizes, tc->nsizes, tc->locals, tc->nlocals))
		validate_shapes(ld, tc->sim_sizes, tc->nsim_sizes,
				tc->nsim_locals ? tc->sim_locals : tc->locals,
				tc->nsim_locals ? tc->nsim_locals : tc->nlocals);
}

static void parse_case(struct loader *ld, struct fy_node *root)
{
	static const char *const keys[] = { "about",	 "kernel", "sizes",   "sim_sizes", "local",
					    "sim_local", "global", "args",    "steps",	   "check",
					    "racy",	 "seed",   "options", "timeout",   NULL };
	struct test_case *tc = ld->tc;
	struct src_pos top = { 1, 1 };
	if (!require_mapping(ld, root, top, "a case file"))
		return;
	reject_unknown_keys(ld, root, "a case", keys);

	struct fy_node *v;
	/* Every buffer's seed derives from this one, so parse it before the arguments. */
	tc->seed = 1;
	if ((v = get(root, "seed")) != NULL)
		parse_seed(ld, v, top, &tc->seed);

	ld->root = root;
	tc->about = scalar_at(ld, root, "about", top,
			      "an about line saying what the case shows (about: ...)");
	if ((v = get(root, "racy")) != NULL)
		parse_bool(ld, v, top, "racy", &tc->racy);
	if ((v = get(root, "timeout")) != NULL)
		parse_timeout(ld, v, top, &tc->timeout_s);
	if ((v = get(root, "options")) != NULL) {
		tc->options = scalar(ld, v, top, "build options");
		/* PoCL 3.1 prints LLVM noise and Oclgrind 21.10 refuses a program built with -g. */
		if (tc->options &&
		    (strcmp(tc->options, "-g") == 0 || strstr(tc->options, "-g ") == tc->options ||
		     strstr(tc->options, " -g")))
			error_at(ld, node_pos(v, top),
				 "options must not contain -g: PoCL 3.1 and Oclgrind "
				 "21.10 builds fail with it");
	}

	tc->sizes_pos = key_pos(root, "sizes", top);
	tc->local_pos = key_pos(root, "local", top);
	if (!misspelt(ld, root, "sizes"))
		parse_size_list(ld, get(root, "sizes"), tc->sizes_pos, "sizes", &tc->sizes,
				&tc->nsizes);
	if (!misspelt(ld, root, "local"))
		parse_size_list(ld, get(root, "local"), tc->local_pos, "local", &tc->locals,
				&tc->nlocals);
	if ((v = get(root, "sim_sizes")) != NULL)
		parse_size_list(ld, v, key_pos(root, "sim_sizes", top), "sim_sizes", &tc->sim_sizes,
				&tc->nsim_sizes);
	if ((v = get(root, "sim_local")) != NULL)
		parse_size_list(ld, v, key_pos(root, "sim_local", top), "sim_local",
				&tc->sim_locals, &tc->nsim_locals);

	struct fy_node *steps = get(root, "steps");
	if (steps != NULL) {
		const char *single[] = { "kernel", "global", "args" };
		for (int i = 0; i < 3; i++)
			if (get(root, single[i]))
				error_at(ld, key_pos(root, single[i], top),
					 "'%s' belongs inside each step when a case has steps",
					 single[i]);
		if (!fy_node_is_sequence(steps) || fy_node_sequence_item_count(steps) == 0) {
			error_at(ld, node_pos(steps, key_pos(root, "steps", top)),
				 "steps must be a non-empty list of launches, found %s",
				 node_kind(steps));
		} else {
			tc->nsteps = (size_t)fy_node_sequence_item_count(steps);
			tc->steps = xcalloc(tc->nsteps, sizeof *tc->steps);
			void *iter = NULL;
			struct fy_node *item;
			for (size_t i = 0; (item = fy_node_sequence_iterate(steps, &iter)) != NULL;
			     i++)
				parse_step(ld, item, key_pos(root, "steps", top), false,
					   &tc->steps[i]);
		}
	} else {
		tc->nsteps = 1;
		tc->steps = xcalloc(1, sizeof *tc->steps);
		parse_step(ld, root, top, true, &tc->steps[0]);
	}

	parse_checks(ld, get(root, "check"), top);
	if (ld->errors == 0)
		validate_plans(ld);
}

char *case_name_from_path(const char *path)
{
	const char *start = path;
	for (const char *p = path; (p = strstr(p, "cases/")) != NULL; p++)
		if (p == path || p[-1] == '/')
			start = p + strlen("cases/");
	if (start == path) {
		const char *slash = strrchr(path, '/');
		start = slash ? slash + 1 : path;
	}
	size_t len = strlen(start);
	if (len > 5 && strcmp(start + len - 5, ".yaml") == 0)
		len -= 5;
	else if (len > 4 && strcmp(start + len - 4, ".yml") == 0)
		len -= 4;
	return xstrndup(start, len);
}

/* Loads a case from `text`, or from the file at `path` when text is NULL; `path` names
 * the case in diagnostics and is where its kernel files are looked for. */
static struct test_case *load(const char *path, const char *text, struct diag_list *diags)
{
	struct loader ld = { .path = path, .diags = diags };
	struct test_case *tc = xcalloc(1, sizeof *tc);
	tc->path = xstrdup(path);
	tc->name = case_name_from_path(path);
	ld.tc = tc;

	struct fy_diag_cfg dcfg;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = NULL;
	struct fy_diag *fdiag = fy_diag_create(&dcfg);
	if (fdiag == NULL) {
		fprintf(stderr, "clharness: out of memory creating a YAML diagnostics object\n");
		exit(2);
	}
	fy_diag_set_collect_errors(fdiag, true);
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG, .diag = fdiag };

	if (text == NULL && access(path, R_OK) != 0) {
		error_at(&ld, (struct src_pos){ 0 }, "cannot read the case file: %s",
			 strerror(errno));
	} else {
		struct fy_document *doc = text ? fy_document_build_from_string(&pcfg, text, FY_NT)
					       : fy_document_build_from_file(&pcfg, path);
		if (doc == NULL) {
			void *iter = NULL;
			struct fy_diag_error *e;
			while ((e = fy_diag_errors_iterate(fdiag, &iter)) != NULL)
				if (e->type >= FYET_ERROR)
					error_at(&ld, (struct src_pos){ e->line, e->column },
						 "YAML: %s", e->msg);
			if (ld.errors == 0)
				error_at(&ld, (struct src_pos){ 0 }, "not a YAML document");
		} else {
			parse_case(&ld, fy_document_root(doc));
			fy_document_destroy(doc);
		}
	}
	fy_diag_destroy(fdiag);
	free(ld.suggestions);
	free(ld.unparsed);

	if (ld.errors > 0) {
		case_free(tc);
		return NULL;
	}
	return tc;
}

struct test_case *case_load(const char *path, struct diag_list *diags)
{
	return load(path, NULL, diags);
}

struct test_case *case_load_text(const char *path, const char *text, struct diag_list *diags)
{
	return load(path, text, diags);
}
