/* assignment.c - reads a grading assignment and checks it against the cases it names. */
#include "config.h"

#include <ctype.h>
#include <libfyaml.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/elem.h"
#include "case/testcase.h"
#include "findings/finding.h"
#include "grade/assignment.h"

/* A run's limits where the assignment sets none. The address space must fit what a
 * driver reserves before any kernel runs: NVIDIA's on an H100 needs over 12 GiB (it
 * starts with 16 GiB), PoCL on 16 cores under 2 GiB. */
#define DEFAULT_WALL_S	      30
#define DEFAULT_CPU_S	      120
#define DEFAULT_ADDRESS_SPACE (32ull << 30)

const char *grade_kind_name(enum grade_kind kind)
{
	static const char *const names[] = {
		[GRADE_CORRECT] = "correct", [GRADE_SIMULATE] = "simulate", [GRADE_SPEED] = "speed"
	};
	return names[kind];
}

/* ---- prototypes ---------------------------------------------------------------------- */

static bool is_word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The words of `text`, each '*' a word of its own. */
static size_t split_words(const char *text, char ***words)
{
	size_t n = 0;
	*words = NULL;
	for (const char *p = text; *p;) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		size_t len = 1; /* '*', or any other sign, which parse_param rejects */
		if (is_word_char(*p))
			for (len = 0; is_word_char(p[len]); len++)
				;
		*words = xreallocarray(*words, n + 1, sizeof **words);
		(*words)[n++] = xstrndup(p, len);
		p += len;
	}
	return n;
}

static void free_words(char **words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

/* Parses one parameter: address space, const, volatile, restrict, type words, '*', name. */
static int parse_param(const char *text, struct kernel_param *p, char **why)
{
	char **words;
	size_t n = split_words(text, &words);
	bool pointer = false, constant = false, is_const = false;
	int space = -1; /* ARG_BUFFER or ARG_LOCAL for a pointer's space; -1: none written */
	struct strbuf type = { 0 };
	char *name = NULL;
	int status = 0;
	for (size_t i = 0; i < n; i++) {
		const char *w = words[i];
		if (strcmp(w, "global") == 0 || strcmp(w, "__global") == 0)
			space = ARG_BUFFER;
		else if (strcmp(w, "constant") == 0 || strcmp(w, "__constant") == 0)
			space = ARG_BUFFER, constant = true;
		else if (strcmp(w, "local") == 0 || strcmp(w, "__local") == 0)
			space = ARG_LOCAL;
		else if (strcmp(w, "private") == 0 || strcmp(w, "__private") == 0)
			continue;
		else if (strcmp(w, "const") == 0)
			is_const = true;
		else if (strcmp(w, "volatile") == 0 || strcmp(w, "restrict") == 0)
			continue;
		else if (strcmp(w, "*") == 0)
			pointer = true;
		else if (!is_word_char(w[0])) {
			*why = xasprintf("unexpected '%s' in parameter '%s'", w, text);
			status = -1;
			break;
		} else if (i + 1 == n && type.len > 0)
			name = xstrdup(w);
		else
			strbuf_printf(&type, "%s%s", type.len ? " " : "", w);
	}
	if (status == 0 && (type.len == 0 || name == NULL)) {
		*why = xasprintf("parameter '%s' needs a type and a name", text);
		status = -1;
	}
	if (status == 0 && pointer != (space >= 0)) {
		*why = xasprintf(pointer ? "pointer parameter '%s' needs an address space (global, "
					   "constant or local)"
					 : "parameter '%s' has an address space but is no pointer",
				 text);
		status = -1;
	}
	if (status == 0) {
		struct strbuf normal = { 0 };
		strbuf_puts(&type, pointer ? "*" : "");
		kernel_type_normal(&normal, type.data);
		*p = (struct kernel_param){ .name = name,
					    .type = strbuf_take(&normal),
					    .kind = pointer ? (enum arg_kind)space : ARG_SCALAR,
					    .read_only = constant || (pointer && is_const),
					    .constant = constant };
		name = NULL;
	}
	free(name);
	strbuf_free(&type);
	free_words(words, n);
	return status;
}

int kernel_proto_parse(const char *text, char **name, struct kernel_sig *sig, char **why)
{
	*sig = (struct kernel_sig){ 0 };
	*name = NULL;
	const char *open = strchr(text, '(');
	const char *close = strrchr(text, ')');
	if (open == NULL || close == NULL || close < open) {
		*why = xasprintf("expected a prototype like 'kernel void name(global const float "
				 "*in, global float *out)'");
		return -1;
	}
	for (const char *p = close + 1; *p; p++)
		if (!isspace((unsigned char)*p) && *p != ';' && *p != '{') {
			*why = xasprintf("unexpected text after the parameter list: '%s'", p);
			return -1;
		}
	char *head = xstrndup(text, (size_t)(open - text));
	char **words;
	size_t n = split_words(head, &words);
	free(head);
	bool kernel = false, is_void = false;
	for (size_t i = 0; i + 1 < n; i++) {
		kernel |= strcmp(words[i], "kernel") == 0 || strcmp(words[i], "__kernel") == 0;
		is_void |= strcmp(words[i], "void") == 0;
	}
	if (!kernel || !is_void || n == 0 || !is_word_char(words[n - 1][0])) {
		*why = xasprintf("expected 'kernel void NAME(...)'");
		free_words(words, n);
		return -1;
	}
	char *kernel_name = xstrdup(words[n - 1]);
	free_words(words, n);

	char *params = xstrndup(open + 1, (size_t)(close - open - 1));
	int status = 0;
	char *rest = params;
	char *trimmed = params + strspn(params, " \t\n");
	size_t tlen = strlen(trimmed);
	while (tlen > 0 && isspace((unsigned char)trimmed[tlen - 1]))
		tlen--;
	bool none = tlen == 0 || (tlen == 4 && strncmp(trimmed, "void", 4) == 0);
	while (!none && status == 0) {
		char *comma = strchr(rest, ',');
		if (comma)
			*comma = '\0';
		if (strspn(rest, " \t\n") == strlen(rest)) {
			*why = xasprintf("an empty parameter in the list");
			status = -1;
			break;
		}
		sig->params = xreallocarray(sig->params, sig->count + 1, sizeof *sig->params);
		if (parse_param(rest, &sig->params[sig->count], why) < 0)
			status = -1;
		else
			sig->count++;
		if (comma == NULL)
			break;
		rest = comma + 1;
	}
	free(params);
	if (status < 0) {
		free(kernel_name);
		kernel_sig_free(sig);
		return -1;
	}
	*name = kernel_name;
	return 0;
}

static const char *space_words(enum arg_kind kind)
{
	return kind == ARG_BUFFER ? "global " : kind == ARG_LOCAL ? "local " : "";
}

char *kernel_sig_mismatch(const struct kernel_sig *declared, const struct kernel_sig *actual)
{
	if (declared->count != actual->count)
		return xasprintf("it takes %zu parameter%s, the assignment asks for %zu",
				 actual->count, actual->count == 1 ? "" : "s", declared->count);
	for (size_t i = 0; i < declared->count; i++) {
		const struct kernel_param *want = &declared->params[i], *got = &actual->params[i];
		struct strbuf want_type = { 0 }, got_type = { 0 };
		kernel_type_normal(&want_type, want->type);
		kernel_type_normal(&got_type, got->type);
		bool same = want->kind == got->kind && strcmp(want_type.data, got_type.data) == 0;
		char *why =
			same ? NULL
			     : xasprintf("parameter %zu is '%s%s %s', the assignment asks for "
					 "'%s%s %s'",
					 i + 1, space_words(got->kind), got_type.data, got->name,
					 space_words(want->kind), want_type.data, want->name);
		strbuf_free(&want_type);
		strbuf_free(&got_type);
		if (why)
			return why;
	}
	return NULL;
}

/* ---- substitution -------------------------------------------------------------------- */

static const struct kernel_proto *declared_kernel(const struct assignment *a, const char *name)
{
	for (size_t k = 0; k < a->nkernels; k++)
		if (strcmp(a->kernels[k].name, name) == 0)
			return &a->kernels[k];
	return NULL;
}

const struct kernel_proto *assignment_kernel_of_step(const struct assignment *a,
						     const struct test_case *tc, size_t s)
{
	const struct kernel_proto *k = declared_kernel(a, tc->steps[s].kernel_name);
	if (k == NULL && a->nkernels == 1 && tc->nsteps == 1)
		k = &a->kernels[0];
	return k;
}

void assignment_substitute(const struct assignment *a, struct test_case *tc, const char *path)
{
	for (size_t s = 0; s < tc->nsteps; s++) {
		const struct kernel_proto *k = assignment_kernel_of_step(a, tc, s);
		if (k == NULL)
			continue;
		struct step *st = &tc->steps[s];
		free(st->kernel_file);
		free(st->kernel_path);
		free(st->kernel_name);
		st->kernel_file = xstrdup(path);
		st->kernel_path = xstrdup(path);
		st->kernel_name = xstrdup(k->name);
	}
}

/* ---- loading ------------------------------------------------------------------------- */

struct loader {
	struct yaml_reader r;
	struct assignment *a;
};

/* "32 GiB", "512 MiB", or bytes. */
static bool parse_bytes(struct loader *ld, struct fy_node *node, struct src_pos at,
			const char *what, uint64_t *out)
{
	char *text = yr_scalar(&ld->r, node, at, what);
	if (text == NULL)
		return false;
	char *end;
	double v = strtod(text, &end);
	while (*end == ' ')
		end++;
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "", 1 },
		      { "B", 1 },
		      { "KiB", 1024.0 },
		      { "MiB", 1048576.0 },
		      { "GiB", 1073741824.0 },
		      { "TiB", 1099511627776.0 } };
	double scale = 0;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(end, units[i].unit) == 0)
			scale = units[i].scale;
	bool ok = end != text && scale > 0 && isfinite(v) && v * scale >= 1048576.0 &&
		  v * scale < 18e18;
	if (!ok)
		yr_error(&ld->r, yr_pos(node, at),
			 "%s must be a size of at least 1 MiB, like '32 GiB' or '512 MiB', found "
			 "'%s'",
			 what, text);
	else
		*out = (uint64_t)(v * scale);
	free(text);
	return ok;
}

static void parse_kernels(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	if (node == NULL || !fy_node_is_sequence(node) || fy_node_sequence_item_count(node) == 0) {
		yr_error(&ld->r, yr_pos(node, at),
			 "kernels must be a list of the prototypes a submission defines, like "
			 "['kernel void sum(global const float *in, global float *out)'], found %s",
			 yr_kind(node));
		return;
	}
	void *iter = NULL;
	struct fy_node *item;
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL) {
		char *text = yr_scalar(&ld->r, item, at, "a kernel prototype");
		if (text == NULL)
			continue;
		struct kernel_proto k = { .text = text };
		char *why = NULL;
		if (kernel_proto_parse(text, &k.name, &k.sig, &why) < 0) {
			bool cut = strchr(text, '(') && !strchr(text, ')');
			yr_error(
				&ld->r, yr_pos(item, at), "in kernel prototype '%s': %s%s", text,
				why,
				cut ? "; inside [...] a comma ends a value, so list each prototype "
				      "on a line of its own after '- ', or quote it"
				    : "");
			free(why);
			free(text);
			continue;
		}
		struct assignment *a = ld->a;
		if (declared_kernel(a, k.name)) {
			yr_error(&ld->r, yr_pos(item, at), "kernel %s is declared twice", k.name);
			free(k.name);
			kernel_sig_free(&k.sig);
			free(text);
			continue;
		}
		a->kernels = xreallocarray(a->kernels, a->nkernels + 1, sizeof *a->kernels);
		a->kernels[a->nkernels++] = k;
	}
}

static void parse_limits(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	if (!yr_require_mapping(&ld->r, node, at, "limits"))
		return;
	static const char *const keys[] = { "wall", "cpu", "memory", NULL };
	yr_reject_unknown_keys(&ld->r, node, "limits", keys);
	struct fy_node *v;
	if ((v = yr_get(node, "wall")) != NULL)
		yr_seconds(&ld->r, v, at, "limits.wall", 3600, &ld->a->wall_s);
	if ((v = yr_get(node, "cpu")) != NULL)
		yr_seconds(&ld->r, v, at, "limits.cpu", 36000, &ld->a->cpu_s);
	if ((v = yr_get(node, "memory")) != NULL)
		parse_bytes(ld, v, at, "limits.memory", &ld->a->address_space);
}

/* A list of names under `key` (a mistake where it is none, or empty and `nonempty`),
 * each turned into bits by bits_of, which says false for no such name: `item` is what a
 * name is ("finding kind"), `meaning` what the list says and `known` the names, for the
 * messages. */
static unsigned parse_names(struct loader *ld, struct fy_node *node, struct src_pos at,
			    const char *key, const char *meaning, const char *item,
			    const char *known, bool nonempty,
			    bool (*bits_of)(const char *name, unsigned *bits))
{
	if (node == NULL || !fy_node_is_sequence(node) ||
	    (nonempty && fy_node_sequence_item_count(node) == 0)) {
		yr_error(&ld->r, yr_pos(node, at), "%s must list %s, from %s; found %s", key,
			 meaning, known, yr_kind(node));
		return 0;
	}
	unsigned bits = 0;
	void *iter = NULL;
	struct fy_node *name;
	while ((name = fy_node_sequence_iterate(node, &iter)) != NULL) {
		char *what = xasprintf("a %s", item);
		char *text = yr_scalar(&ld->r, name, at, what);
		if (text && !bits_of(text, &bits))
			yr_error(&ld->r, yr_pos(name, at), "unknown %s '%s' (known: %s)", item,
				 text, known);
		free(what);
		free(text);
	}
	return bits;
}

/* A kind of native code, as `allow` names it (nativecode.h). */
static bool allow_bits(const char *name, unsigned *bits)
{
	enum native_kind kind;
	if (!native_kind_from_name(name, &kind))
		return false;
	*bits |= 1u << kind;
	return true;
}

/* A finding kind, as `forbid` names it. Forbidding races forbids an async copy never
 * waited for, which races with whatever reads its memory. */
static bool forbid_bits(const char *name, unsigned *bits)
{
	static const enum finding_kind kinds[] = { FINDING_RACE, FINDING_DIVERGENCE,
						   FINDING_OUT_OF_BOUNDS, FINDING_UNINITIALIZED,
						   FINDING_ASYNC_COPY };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (strcmp(name, finding_kind_name(kinds[k])) == 0) {
			*bits |= 1u << kinds[k];
			if (kinds[k] == FINDING_RACE)
				*bits |= 1u << FINDING_ASYNC_COPY;
			return true;
		}
	return false;
}

/* The native code an `allow` list names, which the assignment's submissions may hold:
 * inline-assembly, function-pointers. */
static unsigned parse_allow(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	return parse_names(ld, node, at, "allow", "what submissions may hold beyond OpenCL C",
			   "kind of native code", "inline-assembly, function-pointers", false,
			   allow_bits);
}

/* The finding kinds a `forbid` list names: race, barrier-divergence, out-of-bounds,
 * uninitialized, async-copy. */
static unsigned parse_forbid(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	return parse_names(ld, node, at, "forbid", "what fails a run", "finding kind",
			   "race, barrier-divergence, out-of-bounds, uninitialized, async-copy",
			   true, forbid_bits);
}

/* A simulate check's `requires`: names of correct checks listed before it, which must
 * pass for it to earn anything. */
static void parse_requires(struct loader *ld, struct fy_node *node, struct src_pos at,
			   struct grade_check *c)
{
	if (!fy_node_is_sequence(node) || fy_node_sequence_item_count(node) == 0) {
		yr_error(&ld->r, yr_pos(node, at),
			 "requires must list the correct checks (listed before this one) that must "
			 "pass for this check to earn anything; found %s",
			 yr_kind(node));
		return;
	}
	void *iter = NULL;
	struct fy_node *item;
	while ((item = fy_node_sequence_iterate(node, &iter)) != NULL) {
		char *name = yr_scalar(&ld->r, item, at, "a check's name");
		if (name == NULL)
			continue;
		size_t i = 0;
		while (i < ld->a->nchecks &&
		       !(ld->a->checks[i].name && strcmp(ld->a->checks[i].name, name) == 0))
			i++;
		struct strbuf known = { 0 };
		for (size_t k = 0; k < ld->a->nchecks; k++)
			if (ld->a->checks[k].kind == GRADE_CORRECT && ld->a->checks[k].name)
				strbuf_printf(&known, "%s%s", known.len ? ", " : "",
					      ld->a->checks[k].name);
		if (i == ld->a->nchecks || ld->a->checks[i].kind != GRADE_CORRECT)
			yr_error(&ld->r, yr_pos(item, at),
				 "requires names %s, which is no correct check listed before this "
				 "one (those are: %s)",
				 name, known.len ? known.data : "none");
		else {
			c->requires = xreallocarray(c->requires, c->nrequires + 1,
						    sizeof *c->requires);
			c->requires[c->nrequires++] = i;
		}
		strbuf_free(&known);
		free(name);
	}
}

/* The case a check runs, loaded to validate it against the assignment's kernels. */
static void validate_case(struct loader *ld, struct grade_check *c, struct src_pos at)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(c->case_path, &diags);
	if (tc == NULL) {
		yr_error(&ld->r, at, "case %s does not load; its errors follow", c->case_path);
		diag_list_move(ld->r.diags, &diags);
		ld->r.errors++;
		return;
	}
	const struct assignment *a = ld->a;
	for (size_t s = 0; s < tc->nsteps; s++) {
		const struct step *st = &tc->steps[s];
		const struct kernel_proto *k = assignment_kernel_of_step(a, tc, s);
		if (k == NULL) {
			struct strbuf names = { 0 };
			for (size_t i = 0; i < a->nkernels; i++)
				strbuf_printf(&names, "%s%s", i ? ", " : "", a->kernels[i].name);
			yr_error(&ld->r, at,
				 "case %s runs kernel %s, which the assignment does not declare "
				 "(it declares %s)",
				 c->case_path, st->kernel_name, names.data ? names.data : "none");
			strbuf_free(&names);
			continue;
		}
		/* The case's arguments as the parameters a driver would describe. */
		struct kernel_sig from_case = { .params = xcalloc(st->nargs + 1,
								  sizeof *from_case.params),
						.count = st->nargs };
		for (size_t i = 0; i < st->nargs; i++) {
			const struct arg *arg = &st->args[i];
			enum elem_type type =
				arg->kind == ARG_BUFFER ? tc->buffers[arg->buffer].type : arg->type;
			from_case.params[i] = (struct kernel_param){
				.name = xasprintf("(argument %zu of the case)", i + 1),
				.type = xasprintf("%s%s", elem_type_name(type),
						  arg->kind == ARG_SCALAR ? "" : "*"),
				.kind = arg->kind,
			};
		}
		char *why = kernel_sig_mismatch(&k->sig, &from_case);
		if (why)
			yr_error(&ld->r, at,
				 "case %s gives kernel %s what its prototype does not take: %s",
				 c->case_path, k->name, why);
		free(why);
		kernel_sig_free(&from_case);
	}
	/* A grader runs one target at a time: it has no other run to compare with. */
	for (size_t k = 0; k < tc->nchecks; k++)
		if (check_compared_later(&tc->checks[k]))
			yr_error(
				&ld->r, at,
				"case %s checks %s against %s, which grading does not run: give it "
				"a CPU reference or a data file",
				c->case_path, tc->buffers[tc->checks[k].buffer].name,
				tc->checks[k].ref->kind == REF_KERNEL ? "a reference kernel"
								      : "the other targets");
	/* A shape of other dimensions than the case's would run padded with 1s. */
	char *where = xasprintf("check %s's size", c->name);
	char *why = NULL;
	for (size_t i = 0; why == NULL && i < c->nsizes; i++)
		why = case_shape_mismatch(tc, false, &c->sizes[i], where, SHAPE_AS_YAML);
	if (why)
		yr_error(&ld->r, c->sizes_pos, "%s", why);
	free(why);
	free(where);
	where = xasprintf("check %s's work-group shape", c->name);
	why = NULL;
	for (size_t i = 0; why == NULL && i < c->nlocals; i++)
		why = case_shape_mismatch(tc, true, &c->locals[i], where, SHAPE_AS_YAML);
	if (why)
		yr_error(&ld->r, c->locals_pos, "%s", why);
	free(why);
	free(where);
	if (c->kind == GRADE_SIMULATE && c->sizes == NULL && tc->nsim_sizes == 0)
		yr_error(&ld->r, at,
			 "case %s has no sim_sizes, so check %s needs its own sizes (small: the "
			 "simulator is 10^3-10^4 times slower than a device)",
			 c->case_path, c->name);
	case_free(tc);
}

/* A speed check's `against`: a case of the catalogue that does the check's work with its
 * own kernels, which must load, as they are timed as the reference. */
static char *find_against(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	struct src_pos pos = yr_pos(node, at);
	char *file = yr_scalar(&ld->r, node, at, "against");
	if (file == NULL)
		return NULL;
	char *path = find_upwards(ld->r.path, file);
	if (path == NULL) {
		yr_error(&ld->r, pos, "cannot find case %s from this folder or any above it", file);
		free(file);
		return NULL;
	}
	free(file);
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	if (tc == NULL) {
		yr_error(&ld->r, pos, "case %s does not load; its errors follow", path);
		diag_list_move(ld->r.diags, &diags);
		ld->r.errors++;
	}
	case_free(tc);
	return path;
}

/* A simulate check's target: oclgrind, the simulator (the default), or racecheck, the
 * grading device instrumented; every simulate check of an assignment runs on one. */
static void parse_simulate_target(struct loader *ld, struct fy_node *v, struct src_pos at)
{
	char *target = yr_scalar(&ld->r, v, at, "target");
	if (target == NULL)
		return;
	bool racecheck = strcmp(target, "racecheck") == 0;
	if (!racecheck && strcmp(target, "oclgrind") != 0) {
		yr_error(&ld->r, yr_pos(v, at),
			 "a simulate check's target is oclgrind or racecheck, found '%s'", target);
	} else {
		bool first = true;
		for (size_t i = 0; i < ld->a->nchecks; i++)
			first &= ld->a->checks[i].kind != GRADE_SIMULATE;
		if (!first && racecheck != ld->a->simulate_on_racecheck)
			yr_error(&ld->r, yr_pos(v, at),
				 "the simulate checks of one assignment run on one target: the one "
				 "before runs on %s",
				 ld->a->simulate_on_racecheck ? "racecheck" : "oclgrind");
		ld->a->simulate_on_racecheck = racecheck;
	}
	free(target);
}

static void parse_check(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	if (!yr_require_mapping(&ld->r, node, at, "a check"))
		return;
	static const char *const keys[] = { "name",   "about",	"points", "hidden",   "correct",
					    "simulate", "forbid", "speed",  "requires", NULL };
	yr_reject_unknown_keys(&ld->r, node, "a check", keys);
	struct src_pos pos = yr_pos(node, at);
	struct grade_check c = { .pos = pos, .repeat = 10, .rounds = 5 };
	size_t before = ld->r.errors;
	c.name = yr_scalar_at(&ld->r, node, "name", pos, "the check's name");
	struct fy_node *v;
	if ((v = yr_get(node, "about")) != NULL)
		c.about = yr_scalar(&ld->r, v, pos, "about");
	if (yr_number(&ld->r, yr_get(node, "points"), pos, "points", &c.points) &&
	    (c.points <= 0 || c.points > 1000))
		yr_error(&ld->r, yr_key_pos(node, "points", pos),
			 "points must be above 0 and at most 1000, found %g", c.points);
	if ((v = yr_get(node, "hidden")) != NULL)
		yr_bool(&ld->r, v, pos, "hidden", &c.hidden);

	const char *kinds[] = { "correct", "simulate", "speed" };
	struct fy_node *spec = NULL;
	size_t nkinds = 0;
	for (size_t k = 0; k < 3; k++)
		if ((v = yr_get(node, kinds[k])) != NULL) {
			spec = v;
			c.kind = (enum grade_kind)k;
			nkinds++;
		}
	bool misspelt = false;
	for (size_t k = 0; k < 3; k++)
		misspelt |= yr_misspelt(&ld->r, node, kinds[k]);
	if (nkinds == 0 && misspelt)
		goto out; /* that mistake is reported already */
	if (nkinds != 1) {
		yr_error(&ld->r, pos,
			 "a check needs exactly one of correct, simulate or speed, found %zu",
			 nkinds);
		goto out;
	}
	const char *what = kinds[c.kind];
	if (!yr_require_mapping(&ld->r, spec, pos, what))
		goto out;
	static const char *const run_keys[] = { "case", "sizes", "local", NULL };
	static const char *const simulate_keys[] = { "case", "sizes", "local", "target", NULL };
	static const char *const speed_keys[] = { "case", "against", "size",   "local", "full",
						  "none", "repeat",  "rounds", NULL };
	yr_reject_unknown_keys(&ld->r, spec, what,
			       c.kind == GRADE_SPEED	  ? speed_keys
			       : c.kind == GRADE_SIMULATE ? simulate_keys
							  : run_keys);
	if (c.kind == GRADE_SIMULATE && (v = yr_get(spec, "target")) != NULL)
		parse_simulate_target(ld, v, pos);
	char *case_file = yr_scalar_at(&ld->r, spec, "case", pos, "the case file");
	struct src_pos case_pos = yr_key_pos(spec, "case", pos);
	if (case_file) {
		c.case_path = find_upwards(ld->r.path, case_file);
		if (c.case_path == NULL)
			yr_error(&ld->r, case_pos,
				 "cannot find case %s from this folder or any above it", case_file);
		free(case_file);
	}
	if (c.kind == GRADE_SPEED) {
		/* A speed check times one shape. */
		c.sizes = xcalloc(1, sizeof *c.sizes);
		c.locals = xcalloc(1, sizeof *c.locals);
		c.nsizes = yr_shape(&ld->r, yr_get(spec, "size"), pos, "size", c.sizes);
		c.nlocals = yr_shape(&ld->r, yr_get(spec, "local"), pos, "local", c.locals);
		c.sizes_pos = yr_pos(yr_get(spec, "size"), pos);
		c.locals_pos = yr_pos(yr_get(spec, "local"), pos);
		if (yr_number(&ld->r, yr_get(spec, "full"), pos, "full", &c.full) &&
		    yr_number(&ld->r, yr_get(spec, "none"), pos, "none", &c.none) &&
		    !(c.none >= 0 && c.full > c.none))
			yr_error(&ld->r, yr_key_pos(spec, "full", pos),
				 "full (the speed, as a fraction of the reference's, that earns "
				 "every point) must be above none (the speed that earns none), "
				 "found full %g and none %g",
				 c.full, c.none);
		if ((v = yr_get(spec, "against")) != NULL)
			c.against_path = find_against(ld, v, pos);
		double n;
		if ((v = yr_get(spec, "repeat")) != NULL &&
		    yr_number(&ld->r, v, pos, "repeat", &n)) {
			if (n < 1 || n > 10000 || n != floor(n))
				yr_error(&ld->r, yr_pos(v, pos),
					 "repeat must be a whole number from 1 to 10000");
			c.repeat = (unsigned)n;
		}
		if ((v = yr_get(spec, "rounds")) != NULL &&
		    yr_number(&ld->r, v, pos, "rounds", &n)) {
			if (n < 1 || n > 100 || n != floor(n))
				yr_error(&ld->r, yr_pos(v, pos),
					 "rounds must be a whole number from 1 to 100");
			c.rounds = (unsigned)n;
		}
	} else {
		if ((v = yr_get(spec, "sizes")) != NULL) {
			yr_shape_list(&ld->r, v, pos, "sizes", &c.sizes, &c.nsizes);
			c.sizes_pos = yr_pos(v, pos);
		}
		if ((v = yr_get(spec, "local")) != NULL) {
			yr_shape_list(&ld->r, v, pos, "local", &c.locals, &c.nlocals);
			c.locals_pos = yr_pos(v, pos);
		}
	}
	if (c.kind == GRADE_SIMULATE)
		c.forbid = parse_forbid(ld, yr_get(node, "forbid"), pos);
	else if (yr_get(node, "forbid"))
		yr_error(&ld->r, yr_key_pos(node, "forbid", pos),
			 "forbid belongs to a simulate check, not a %s one", what);
	/* A check that forbids what its target cannot see would pay for what nobody
	 * checked: racecheck rewrites accesses, and tracks no value's initialisation. */
	if (c.kind == GRADE_SIMULATE && ld->a->simulate_on_racecheck &&
	    (c.forbid & (1u << FINDING_UNINITIALIZED)))
		yr_error(&ld->r, yr_key_pos(node, "forbid", pos),
			 "this check runs on racecheck, which cannot see uninitialised values "
			 "(the simulator alone tracks them): leave uninitialized out of forbid, or "
			 "run the assignment's simulate checks on oclgrind");
	if ((v = yr_get(node, "requires")) != NULL) {
		if (c.kind == GRADE_SIMULATE)
			parse_requires(ld, v, pos, &c);
		else
			yr_error(&ld->r, yr_key_pos(node, "requires", pos),
				 "requires belongs to a simulate check, not a %s one", what);
	}
	if (c.name)
		for (size_t i = 0; i < ld->a->nchecks; i++)
			if (ld->a->checks[i].name && strcmp(ld->a->checks[i].name, c.name) == 0)
				yr_error(&ld->r, yr_key_pos(node, "name", pos),
					 "two checks are named %s", c.name);
	if (ld->r.errors == before && c.case_path)
		validate_case(ld, &c, case_pos);
out:
	ld->a->checks = xreallocarray(ld->a->checks, ld->a->nchecks + 1, sizeof *ld->a->checks);
	ld->a->checks[ld->a->nchecks++] = c;
	ld->a->max_points += c.points;
}

static void parse_assignment(struct loader *ld, struct fy_node *root)
{
	struct src_pos top = { 1, 1 };
	if (!yr_require_mapping(&ld->r, root, top, "an assignment"))
		return;
	static const char *const keys[] = { "about", "kernels", "limits", "allow", "checks", NULL };
	yr_reject_unknown_keys(&ld->r, root, "an assignment", keys);
	struct fy_node *v;
	if ((v = yr_get(root, "about")) != NULL)
		ld->a->about = yr_scalar(&ld->r, v, top, "about");
	parse_kernels(ld, yr_get(root, "kernels"), top);
	if ((v = yr_get(root, "limits")) != NULL)
		parse_limits(ld, v, top);
	if ((v = yr_get(root, "allow")) != NULL)
		ld->a->allow = parse_allow(ld, v, top);
	if (ld->r.errors > 0)
		return; /* the checks are judged against the kernels */
	struct fy_node *checks = yr_get(root, "checks");
	if (checks == NULL || !fy_node_is_sequence(checks) ||
	    fy_node_sequence_item_count(checks) == 0) {
		yr_error(&ld->r, yr_pos(checks, top), "checks must be a non-empty list, found %s",
			 yr_kind(checks));
		return;
	}
	void *iter = NULL;
	struct fy_node *item;
	while ((item = fy_node_sequence_iterate(checks, &iter)) != NULL)
		parse_check(ld, item, top);
}

/* Loads an assignment from `text`, or from the file at `path` when text is NULL. */
static struct assignment *load(const char *path, const char *text, struct diag_list *diags)
{
	struct assignment *a = xcalloc(1, sizeof *a);
	*a = (struct assignment){ .path = xstrdup(path),
				  .wall_s = DEFAULT_WALL_S,
				  .cpu_s = DEFAULT_CPU_S,
				  .address_space = DEFAULT_ADDRESS_SPACE };
	const char *slash = strrchr(path, '/');
	a->name = xstrdup(slash ? slash + 1 : path);
	char *dot = strrchr(a->name, '.');
	if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
		*dot = '\0';
	struct loader ld = { .r = { .path = path, .diags = diags }, .a = a };
	struct fy_document *doc = yr_open(&ld.r, text, "assignment");
	if (doc) {
		parse_assignment(&ld, fy_document_root(doc));
		fy_document_destroy(doc);
	}
	yr_finish(&ld.r);
	if (ld.r.errors > 0) {
		assignment_free(a);
		return NULL;
	}
	return a;
}

struct assignment *assignment_load(const char *path, struct diag_list *diags)
{
	return load(path, NULL, diags);
}

struct assignment *assignment_load_text(const char *path, const char *text, struct diag_list *diags)
{
	return load(path, text, diags);
}

void assignment_free(struct assignment *a)
{
	if (a == NULL)
		return;
	for (size_t k = 0; k < a->nkernels; k++) {
		free(a->kernels[k].text);
		free(a->kernels[k].name);
		kernel_sig_free(&a->kernels[k].sig);
	}
	free(a->kernels);
	for (size_t i = 0; i < a->nchecks; i++) {
		struct grade_check *c = &a->checks[i];
		free(c->name);
		free(c->about);
		free(c->case_path);
		free(c->against_path);
		free(c->sizes);
		free(c->locals);
		free(c->requires);
	}
	free(a->checks);
	free(a->path);
	free(a->name);
	free(a->about);
	free(a);
}
