/* adhoc.c - `clharness check`: one kernel checked without writing a case. */
#include "config.h"

#include "check/adhoc.h"

#include <ctype.h>
#include <errno.h>
#include <libfyaml.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/annotate.h"
#include "base/util.h"
#include "case/testcase.h"
#include "case/yamltext.h"
#include "exec/dispatch.h"
#include "exec/probe.h"
#include "exec/select.h"
#include "results/findagree.h"
#include "source/structdef.h"

const char *adhoc_set_name(enum input_set set)
{
	static const char *const names[] = {
		[SET_RANDOM] = "random",	   [SET_ZEROS] = "zeros",
		[SET_REPEATS] = "repeats",	   [SET_SCALAR_0] = "scalar-0",
		[SET_SCALAR_1] = "scalar-1",	   [SET_NARROW] = "narrow",
		[SET_BOUNDARY] = "boundary",	   [SET_SCALAR_MINUS_1] = "scalar-minus-1",
		[SET_SCALAR_TAIL] = "scalar-tail",
	};
	return names[set];
}

bool adhoc_set_is_scalar(enum input_set set)
{
	return set == SET_SCALAR_0 || set == SET_SCALAR_1 || set == SET_SCALAR_MINUS_1 ||
	       set == SET_SCALAR_TAIL;
}

/* The element type a parameter's type names ("float4*", "unsigned int"), if the case
 * syntax has it. */
static bool param_elem(const struct kernel_param *p, enum elem_type *type, unsigned *lanes)
{
	struct strbuf normal = { 0 };
	kernel_type_normal(&normal, p->type); /* "unsigned char*" is "uchar*" */
	char *star = strchr(normal.data, '*');
	if (star)
		*star = '\0';
	bool ok = elem_type_parse(normal.data, type, lanes) == 0;
	strbuf_free(&normal);
	return ok;
}

/* Whether the parameter points to bools, which its normal type calls uchar. */
static bool param_is_bool(const struct kernel_param *p)
{
	const char *t = p->type + strspn(p->type, " ");
	return strncmp(t, "bool", 4) == 0 && strspn(t + 4, "* ") == strlen(t + 4);
}

/* The fields of a struct parameter ("struct params", "particle*"), from its definition in
 * the kernel's source. Returns 0, or -1 with why (the caller frees it). */
static int param_struct(const struct adhoc_request *rq, const struct kernel_param *p,
			struct record **out, char **why)
{
	char *type = xstrdup(p->type);
	char *star = strchr(type, '*');
	if (star)
		*star = '\0';
	size_t len = strlen(type);
	while (len > 0 && type[len - 1] == ' ')
		type[--len] = '\0';
	size_t size;
	char *source = read_file(rq->kernel_path, &size);
	int status = -1;
	if (source == NULL)
		*why = xasprintf("cannot read %s for its definition", rq->kernel_path);
	else
		status = structdef_find(source, type, out, why);
	free(source);
	free(type);
	return status;
}

/* The names whose product is a shape's volume: "N", "N * M" or "N * M * K". */
static const char *volume_of(const struct shape *s, bool local)
{
	static const char *const sizes[] = { "N", "N * M", "N * M * K" };
	static const char *const locals[] = { "L", "L * LY", "L * LY * LZ" };
	unsigned d = s->dims ? s->dims - 1 : 0;
	return local ? locals[d] : sizes[d];
}

/* What one --arg says, read with libfyaml. */
struct spec {
	char *name; /* NULL when the spec gives none */
	enum arg_kind kind;
	bool use;    /* {use: x}: refers to an earlier step's buffer */
	bool output; /* gives output: */
};

/* Reads --arg `index` (1-based in messages); returns false after reporting. */
static bool read_spec(const char *text, size_t index, struct spec *spec, struct diag_list *diags)
{
	char *where = xasprintf("--arg %zu", index);
	struct yaml_error err;
	struct fy_document *doc = yaml_from_text(text, false, true, &err);
	struct fy_node *root = doc ? fy_document_root(doc) : NULL;
	bool ok = false;
	*spec = (struct spec){ 0 };
	if (doc == NULL) {
		diag_add(diags, DIAG_ERROR, where, err.line, err.col, "YAML: %s",
			 err.msg ? err.msg : "not a YAML value");
	} else if (root == NULL || !fy_node_is_mapping(root)) {
		diag_add(diags, DIAG_ERROR, where, 0, 0,
			 "an argument is a mapping in the case-file syntax, such as '{buffer: "
			 "float, count: N, init: {random: [0, 10]}}', found '%s'",
			 text);
	} else {
		static const char *const kinds[] = { "buffer", "local", "scalar", "use",
						     "constant" };
		static const enum arg_kind kind_of[] = { ARG_BUFFER, ARG_LOCAL, ARG_SCALAR,
							 ARG_BUFFER, ARG_BUFFER };
		int found = 0;
		for (int k = 0; k < 5; k++) {
			if (fy_node_mapping_lookup_by_string(root, kinds[k], FY_NT)) {
				spec->kind = kind_of[k];
				spec->use = k == 3;
				found++;
			}
		}
		struct fy_node *name = fy_node_mapping_lookup_by_string(root, "name", FY_NT);
		size_t len;
		const char *s =
			name && fy_node_is_scalar(name) ? fy_node_get_scalar(name, &len) : NULL;
		spec->name = s ? xstrndup(s, len) : NULL;
		spec->output = fy_node_mapping_lookup_by_string(root, "output", FY_NT) != NULL;
		if (found != 1)
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "an argument needs exactly one of buffer, constant, local or "
				 "scalar, found %d in '%s'",
				 found, text);
		else if (spec->use)
			diag_add(
				diags, DIAG_ERROR, where, 0, 0,
				"use: names a buffer of an earlier step, and a check has one step: "
				"give the buffer itself, {buffer: TYPE, count: N}");
		else if (spec->output)
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "leave output: out: a check compares every buffer the kernel may "
				 "write across devices, with no reference to check it against");
		else
			ok = true;
	}
	if (doc)
		fy_document_destroy(doc);
	yaml_error_free(&err);
	free(where);
	return ok;
}

/* Whether `name`, lower-cased and without underscores (numCols, num_cols and numcols are
 * one), is among `names`. */
static bool name_among(const char *name, const char *const *names)
{
	char normal[64];
	size_t len = 0;
	for (const char *c = name; *c && len + 1 < sizeof normal; c++)
		if (*c != '_')
			normal[len++] = (char)tolower((unsigned char)*c);
	normal[len] = '\0';
	for (; *names; names++)
		if (strcmp(normal, *names) == 0)
			return true;
	return false;
}

enum scalar_role adhoc_scalar_role(const char *name, unsigned dims)
{
	static const char *const extents[3][14] = {
		{ "width", "w", "cols", "columns", "ncols", "ncolumns", "numcols", "numcolumns",
		  "nx", "sizex", "xsize", "dimx", "imagewidth", NULL },
		{ "height", "h", "rows", "nrows", "numrows", "ny", "sizey", "ysize", "dimy",
		  "imageheight", NULL },
		{ "depth", "nz", "sizez", "zsize", "dimz", "slices", "nslices", "layers", NULL },
	};
	static const char *const elements[] = { "n",	     "count",	    "size",
						"len",	     "length",	    "num",
						"nelems",    "nelements",   "numelements",
						"elements",  "nitems",	    "numitems",
						"total",     "arraysize",   NULL };
	for (unsigned d = 0; d < 3; d++)
		if (name_among(name, extents[d]))
			return d < dims ? (enum scalar_role)(ROLE_EXTENT_X + d) : ROLE_UNPLACED;
	return name_among(name, elements) ? ROLE_ELEMENTS : ROLE_UNPLACED;
}

/* Whether the signature's parameter p, a scalar, is one no name placed: a struct, or
 * one whose name says nothing of the launch. */
static bool placed_by_no_name(const struct adhoc_binding *binding, size_t p)
{
	return binding->records[p] != NULL || binding->roles[p] == ROLE_UNPLACED;
}

/* Whether input set `set` gives a scalar in `role` another value than the random set. */
static bool scalar_varies(enum input_set set, enum scalar_role role)
{
	return role == ROLE_UNPLACED || (set == SET_SCALAR_TAIL && role == ROLE_ELEMENTS);
}

static const char *kind_words(enum arg_kind kind)
{
	return kind == ARG_BUFFER ? "a buffer" : kind == ARG_LOCAL ? "a local buffer" : "a scalar";
}

/* Whether --expect gives values for the buffer called `name`. */
static bool expected(const struct adhoc_request *rq, const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < rq->nexpects; i++)
		if (strncmp(rq->expects[i], name, len) == 0 && rq->expects[i][len] == '=')
			return true;
	return false;
}

/* Checks each --expect against the signature: it names a buffer the kernel may write,
 * and every other buffer is given with --arg, since the expected values are those of one
 * set of inputs, which the signature's would not be. */
static void bind_expects(const struct adhoc_request *rq, const struct kernel_sig *sig,
			 const struct adhoc_binding *binding, struct diag_list *diags)
{
	for (size_t i = 0; i < rq->nexpects; i++) {
		char *where = xasprintf("--expect %zu", i + 1);
		const char *eq = strchr(rq->expects[i], '=');
		size_t len = eq ? (size_t)(eq - rq->expects[i]) : 0;
		size_t p = sig->count;
		for (size_t q = 0; q < sig->count && p == sig->count; q++)
			if (strlen(sig->params[q].name) == len &&
			    strncmp(sig->params[q].name, rq->expects[i], len) == 0)
				p = q;
		if (p == sig->count)
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "%s has no parameter '%.*s' for these values", rq->kernel,
				 (int)len, rq->expects[i]);
		else if (sig->params[p].kind != ARG_BUFFER || sig->params[p].read_only)
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "'%s' is no buffer the kernel writes, so it has no values to "
				 "expect",
				 sig->params[p].name);
		free(where);
	}
	for (size_t p = 0; rq->nexpects && p < sig->count; p++) {
		if (!expected(rq, sig->params[p].name) && sig->params[p].kind == ARG_BUFFER &&
		    binding->spec_of[p] < 0)
			diag_add(
				diags, DIAG_ERROR, "--expect", 0, 0,
				"the expected values come from inputs the signature does not know: "
				"give buffer '%s' with --arg, with the values they came from",
				sig->params[p].name);
	}
}

/* Says that parameter p, left to the signature, cannot be made, and what to write
 * instead: at its own place in the kernel's file where clang read it, else at the file. */
static void refuse_param(const struct adhoc_request *rq, size_t p, const struct kernel_param *param,
			 const struct src_param *src, enum src_form form, const char *why,
			 struct diag_list *diags)
{
	const char *what = form == SRC_IMAGE	 ? "an image"
			   : form == SRC_SAMPLER ? "a sampler"
			   : form == SRC_PIPE	 ? "a pipe"
			   : form == SRC_OTHER	 ? "of a type no host argument makes"
						 : "a struct clharness cannot lay out";
	const char *instead =
		form == SRC_IMAGE || form == SRC_SAMPLER
			? "rewrite the kernel over a buffer of its pixels (global uchar4 *, read "
			  "with an index) to check it"
		: form == SRC_PIPE ? "rewrite the kernel to read a buffer in place of the pipe"
		: form == SRC_OTHER
			? "it can only be made inside the kernel"
			: "give it with --arg, as a buffer of its fields, e.g. '{name: x, buffer: "
			  "{size: 8, align: 4, fields: [{a: float, at: 0}, {b: int, at: 4}]}, count: N}'";
	diag_add(diags, DIAG_ERROR, rq->kernel_path, src ? src->line : 0, src ? src->col : 0,
		 "parameter %zu of %s (%s %s) is %s%s%s%s, which clharness cannot make from the "
		 "signature: %s",
		 p + 1, rq->kernel, param->type, param->name, what, why ? " (" : "", why ? why : "",
		 why ? ")" : "", instead);
}

/* Spec `text` with the whole number of its `key` (value: of a scalar, count: of a
 * buffer) written as the extent of the launch it equals (N, M, K, or the work-items,
 * N * M), so that it scales with a shrunk launch; NULL where it equals none, or several,
 * which sets *tied. */
static char *scaled_spec(const char *text, const struct shape *global, bool *tied)
{
	struct yaml_error err;
	struct fy_document *doc = yaml_from_text(text, false, true, &err);
	yaml_error_free(&err);
	struct fy_node *root = doc ? fy_document_root(doc) : NULL;
	char *scaled = NULL;
	static const char *const keys[] = { "value", "count" };
	for (int k = 0; root && fy_node_is_mapping(root) && k < 2 && scaled == NULL; k++) {
		struct fy_node *node = fy_node_mapping_lookup_by_string(root, keys[k], FY_NT);
		struct fy_token *tok = node && fy_node_is_scalar(node)
					       ? fy_node_get_scalar_token(node)
					       : NULL;
		const struct fy_mark *mark = tok ? fy_token_start_mark(tok) : NULL;
		size_t len;
		const char *number = tok ? fy_node_get_scalar(node, &len) : NULL;
		if (mark == NULL || number == NULL || len == 0 || len > 18 ||
		    strspn(number, "0123456789") < len)
			continue;
		long long v = strtoll(number, NULL, 10);
		static const char *const names[] = { "N", "M", "K" };
		const char *as = NULL;
		int matches = 0;
		for (unsigned d = 0; d < global->dims; d++)
			if (global->d[d] == v && matches++ == 0)
				as = names[d];
		if (global->dims > 1 && shape_volume(global) == v && matches++ == 0)
			as = volume_of(global, false);
		if (matches > 1)
			*tied = true;
		if (matches != 1)
			continue;
		size_t at = mark->input_pos;
		if (at + len > strlen(text) || strncmp(text + at, number, len) != 0)
			continue;
		scaled = xasprintf("%.*s%s%s", (int)at, text, as, text + at + len);
	}
	if (doc)
		fy_document_destroy(doc);
	return scaled;
}

bool adhoc_shrinks(const struct adhoc_request *rq, const struct adhoc_binding *binding,
		   struct shape *simulated)
{
	bool shrinks = binding->costly
			       ? shape_few_groups(&rq->global, &rq->local, simulated)
			       : shape_shrink_for_simulation(&rq->global, &rq->local, simulated);
	if (binding->tied_to_shape || binding->unsimulated) {
		*simulated = rq->global;
		return false;
	}
	return shrinks;
}

int adhoc_bind(const struct adhoc_request *rq, const struct kernel_sig *sig,
	       struct adhoc_binding *binding, struct diag_list *diags)
{
	*binding = (struct adhoc_binding){
		.nparams = sig->count,
		.spec_of = xcalloc(sig->count ? sig->count : 1, sizeof *binding->spec_of),
		.records = xcalloc(sig->count ? sig->count : 1, sizeof *binding->records),
		.roles = xcalloc(sig->count ? sig->count : 1, sizeof *binding->roles),
		.nspecs = rq->nspecs,
		.scaled = xcalloc(rq->nspecs ? rq->nspecs : 1, sizeof *binding->scaled),
	};
	for (size_t i = 0; i < rq->nspecs; i++)
		binding->scaled[i] = scaled_spec(rq->specs[i], &rq->global, &binding->tied_to_shape);
	/* clang's reading of the source, where this build has it; the driver's signature
	 * stands where it cannot read it (a vendor's extension, say). */
	if (kernelsrc_available()) {
		struct diag_list ignored = { 0 };
		binding->have_source = kernelsrc_read(rq->kernel_path, rq->kernel, rq->options,
						      &binding->source, &ignored) == 0 &&
				       binding->source.nparams == sig->count;
		diag_list_free(&ignored);
	}
	for (size_t p = 0; p < sig->count; p++)
		binding->spec_of[p] = -1;
	size_t errors = diags->count;
	for (size_t i = 0; i < rq->nspecs; i++) {
		struct spec spec;
		char *where = xasprintf("--arg %zu", i + 1);
		if (!read_spec(rq->specs[i], i + 1, &spec, diags)) {
			/* It still takes its place, so the ones after keep theirs. */
			for (size_t q = 0; q < sig->count; q++) {
				if (binding->spec_of[q] < 0) {
					binding->spec_of[q] = (long long)i;
					break;
				}
			}
			free(where);
			continue;
		}
		size_t p = sig->count;
		for (size_t q = 0; spec.name && q < sig->count && p == sig->count; q++)
			if (strcmp(sig->params[q].name, spec.name) == 0)
				p = q;
		for (size_t q = 0; p == sig->count && q < sig->count; q++)
			if (binding->spec_of[q] < 0)
				p = q;
		if (p == sig->count) {
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "one argument too many: %zu given, but %s takes %zu", rq->nspecs,
				 rq->kernel, sig->count);
			free(spec.name);
			free(where);
			break;
		}
		const struct kernel_param *param = &sig->params[p];
		if (binding->spec_of[p] >= 0)
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "gives parameter %zu (%s), which --arg %lld gives already", p + 1,
				 param->name, binding->spec_of[p] + 1);
		else if (spec.kind != param->kind)
			diag_add(diags, DIAG_ERROR, where, 0, 0,
				 "gives %s, but parameter %zu of %s (%s %s) is %s",
				 kind_words(spec.kind), p + 1, rq->kernel, param->type, param->name,
				 kind_words(param->kind));
		binding->spec_of[p] = (long long)i;
		free(spec.name);
		free(where);
	}
	bind_expects(rq, sig, binding, diags);
	for (size_t p = 0; p < sig->count; p++) {
		enum elem_type type;
		unsigned lanes;
		bool plain = param_elem(&sig->params[p], &type, &lanes);
		if (binding->spec_of[p] < 0 && plain && lanes == 1 &&
		    sig->params[p].kind == ARG_SCALAR)
			binding->roles[p] = adhoc_scalar_role(sig->params[p].name, rq->global.dims);
		if (binding->spec_of[p] >= 0 || plain)
			continue;
		const struct kernel_param *param = &sig->params[p];
		const struct src_param *src = binding->have_source && p < binding->source.nparams
						      ? &binding->source.params[p]
						      : NULL;
		enum src_form form = src			      ? src->form
				     : strstr(param->type, "sampler") ? SRC_SAMPLER
				     : strstr(param->type, "image")   ? SRC_IMAGE
								      : SRC_VALUE;
		char *why = NULL;
		if (form == SRC_VALUE || form == SRC_POINTER) {
			if (src && src->record) {
				binding->records[p] = record_copy(src->record);
				continue;
			}
			if (src && src->why)
				why = xstrdup(src->why);
			else if (src == NULL &&
				 param_struct(rq, param, &binding->records[p], &why) == 0)
				continue;
		}
		refuse_param(rq, p, param, src, form, why, diags);
		free(why);
	}
	return diags->count > errors ? -1 : 0;
}

void adhoc_binding_free(struct adhoc_binding *binding)
{
	kernel_source_free(&binding->source);
	for (size_t p = 0; binding->records && p < binding->nparams; p++)
		record_free(binding->records[p]);
	free(binding->records);
	free(binding->roles);
	for (size_t i = 0; binding->scaled && i < binding->nspecs; i++)
		free(binding->scaled[i]);
	free(binding->scaled);
	free(binding->spec_of);
	*binding = (struct adhoc_binding){ 0 };
}

bool adhoc_set_applies(enum input_set set, const struct kernel_sig *sig,
		       const struct adhoc_binding *binding)
{
	if (set == SET_RANDOM)
		return true;
	/* The sets differ only in the arguments made from the signature: the buffer sets
	 * where a buffer is made, the scalar sets where a scalar is that its name does not
	 * tie to the launch (and the scalar-tail set where one holds its elements). */
	enum arg_kind differs = adhoc_set_is_scalar(set) ? ARG_SCALAR : ARG_BUFFER;
	for (size_t p = 0; p < sig->count; p++)
		if (binding->spec_of[p] < 0 && sig->params[p].kind == differs &&
		    (differs == ARG_BUFFER || scalar_varies(set, binding->roles[p])))
			return true;
	return false;
}


void adhoc_boundary_range(enum elem_type type, double *lo, double *hi)
{
	/* The whole numbers a float holds exactly reach 2^precision; a 64-bit integer's
	 * extremes are past what a double (an init's range) holds. */
	int bits = elem_is_float(type) ? elem_precision(type) : elem_bits(type);
	double top = ldexp(1, bits < 54 ? bits : 53);
	*lo = elem_is_float(type) ? -top : elem_is_signed(type) ? -top / 2 : 0;
	*hi = elem_is_float(type) ? top : elem_is_signed(type) ? top / 2 - 1 : top - 1;
}

/* What a generated scalar that its name does not place holds in input set `set`. */
static const char *scalar_value(enum input_set set)
{
	return set == SET_SCALAR_0	   ? "0"
	       : set == SET_SCALAR_1	   ? "1"
	       : set == SET_SCALAR_MINUS_1 ? "-1"
	       : set == SET_SCALAR_TAIL	   ? "N - L / 2"
					   : "N";
}

/* The launch's own value for a scalar in `role`, as an expression over N, M, K. */
static const char *role_value(enum scalar_role role, const struct shape *global)
{
	return role == ROLE_EXTENT_X   ? "N"
	       : role == ROLE_EXTENT_Y ? "M"
	       : role == ROLE_EXTENT_Z ? "K"
				       : volume_of(global, false);
}

/* What a scalar in `role` holds in input set `set`: an extent keeps the launch's in every
 * set, since any other value contradicts the launch; the count of elements is half a
 * group short in the scalar-tail set (a launch rounded up past its data) and the
 * launch's in the others; a scalar its name does not place takes each set's value. */
static const char *role_scalar_value(enum input_set set, enum scalar_role role,
				     const struct shape *global)
{
	if (role == ROLE_UNPLACED)
		return scalar_value(set);
	if (role == ROLE_ELEMENTS && set == SET_SCALAR_TAIL && global->dims == 1)
		return scalar_value(set);
	return role_value(role, global);
}

bool adhoc_set_values(enum input_set set, enum elem_type type, bool is_record, enum init_kind *kind,
		      double *lo, double *hi)
{
	switch (set) {
	case SET_ZEROS:
		*kind = INIT_FILL;
		*lo = 0;
		return true;
	case SET_REPEATS:
	case SET_NARROW:
		*kind = INIT_RANDOM_INT;
		*lo = 0;
		*hi = set == SET_REPEATS ? 3 : 1;
		return true;
	case SET_BOUNDARY:
		/* A struct's fields have types of their own: they keep their values. */
		if (is_record)
			return false;
		*kind = INIT_RANDOM_INT;
		adhoc_boundary_range(type, lo, hi);
		return true;
	default:
		return false;
	}
}

char *adhoc_set_init(enum input_set set, enum elem_type type, bool is_record)
{
	enum init_kind kind;
	double lo, hi;
	if (!adhoc_set_values(set, type, is_record, &kind, &lo, &hi))
		return NULL;
	if (kind == INIT_FILL)
		return xasprintf("{fill: %.17g}", lo);
	return xasprintf("{random_int: [%.17g, %.17g]}", lo, hi);
}

/* A buffer's init in input set `set`. Whole numbers in every set, so float sums are
 * exact in any order and devices can be compared exactly; a struct's fields may be
 * unsigned and char, so their range fits every type. */
static char *buffer_init(enum input_set set, enum elem_type type, bool is_record)
{
	char *fixed = adhoc_set_init(set, type, is_record);
	if (fixed)
		return fixed;
	if (is_record)
		return xstrdup("{random_int: [0, 100]}");
	if (elem_is_float(type))
		return xstrdup("{random_int: [-8, 8]}");
	return xstrdup(elem_is_signed(type) ? "{random_int: [-100, 100]}"
					    : "{random_int: [0, 100]}");
}

/* One argument the signature implies, filled as input set `set` says. Whole numbers in
 * every set, so float sums are exact in any order and devices can be compared exactly. A
 * buffer holds one element a work-item, a local buffer one a work-group's item. */
static void generated_arg(struct strbuf *out, const struct adhoc_request *rq,
			  const struct kernel_param *p, const struct record *rec,
			  enum scalar_role role, enum input_set set)
{
	enum elem_type type = ELEM_FLOAT;
	unsigned lanes = 1;
	param_elem(p, &type, &lanes);
	char tbuf[ELEM_NAME_MAX];
	char *fields = rec ? record_case_text(rec) : NULL;
	const char *t = fields ? fields : elem_type_text(type, lanes, tbuf);
	if (rec && p->kind == ARG_SCALAR) {
		/* One value a field, each the set's. */
		const char *value = scalar_value(set);
		strbuf_printf(out, "{name: %s, scalar: %s, value: [", p->name, t);
		for (size_t f = 0; f < rec->nfields; f++)
			strbuf_printf(out, "%s%s", f ? ", " : "", value);
		strbuf_puts(out, "]}");
		free(fields);
		return;
	}
	if (p->kind == ARG_LOCAL) {
		strbuf_printf(out, "{name: %s, local: %s, count: %s}", p->name, t,
			      volume_of(&rq->local, true));
		free(fields);
		return;
	}
	if (p->kind == ARG_SCALAR) {
		strbuf_printf(out, "{name: %s, scalar: %s, value: %s}", p->name, t,
			      role_scalar_value(set, role, &rq->global));
		free(fields);
		return;
	}
	/* Any other byte in a bool is undefined behaviour, not a finding. A buffer --expect
	 * checks starts poisoned, as a case's output does, so that an element the kernel
	 * never writes is reported as that. */
	char *init = expected(rq, p->name) ? NULL
		     : !param_is_bool(p)   ? buffer_init(set, type, rec != NULL)
		     : set == SET_ZEROS	   ? xstrdup("{fill: 0}")
					   : xstrdup("{random_int: [0, 1]}");
	/* A constant buffer is as long as a work-group: constant memory is small. */
	strbuf_printf(out, "{name: %s, %s: %s, count: %s%s%s}", p->name,
		      p->constant ? "constant" : "buffer", t,
		      volume_of(p->constant ? &rq->local : &rq->global, p->constant),
		      init ? ", init: " : "", init ? init : "");
	free(init);
	free(fields);
}

/* The why of a scalar that role places. */
static const char *role_why(enum scalar_role role)
{
	return role == ROLE_EXTENT_X   ? "the global size's first extent, as its name says"
	       : role == ROLE_EXTENT_Y ? "the global size's second extent, as its name says"
	       : role == ROLE_EXTENT_Z ? "the global size's third extent, as its name says"
				       : "the global size's work-items, as its name says";
}

static void choose(struct chosen_value **out, size_t *count, const char *name, char *value,
		   char *why, char *override)
{
	*out = xreallocarray(*out, *count + 1, sizeof **out);
	(*out)[(*count)++] = (struct chosen_value){ xstrdup(name), value, why, override };
}

size_t adhoc_choices(const struct adhoc_request *rq, const struct kernel_sig *sig,
		     const struct adhoc_binding *binding, struct chosen_value **out)
{
	*out = NULL;
	size_t count = 0;
	char global[SHAPE_TEXT_MAX], local[SHAPE_TEXT_MAX];
	shape_format(&rq->global, global);
	shape_format(&rq->local, local);
	for (size_t p = 0; p < sig->count; p++) {
		const struct kernel_param *param = &sig->params[p];
		if (binding->spec_of[p] >= 0 || expected(rq, param->name))
			continue;
		enum elem_type type = ELEM_FLOAT;
		unsigned lanes = 1;
		param_elem(param, &type, &lanes);
		char tbuf[ELEM_NAME_MAX];
		const char *t = binding->records[p] ? "struct" : elem_type_text(type, lanes, tbuf);
		if (param->kind == ARG_SCALAR) {
			enum scalar_role role = binding->roles[p];
			if (placed_by_no_name(binding, p)) {
				choose(out, &count, param->name,
				       xasprintf("%lld%s, and 0 and 1 in the scalar-0 and scalar-1 "
						 "inputs",
						 rq->global.d[0],
						 binding->records[p] ? " in each field" : ""),
				       xstrdup("nothing in its name ties it to the launch: the "
					       "global size's first extent, N, is a guess"),
				       xasprintf("--arg '{name: %s, scalar: %s, value: ...}'",
						 param->name, t));
				continue;
			}
			long long value = role == ROLE_ELEMENTS ? shape_volume(&rq->global)
							       : rq->global.d[role - ROLE_EXTENT_X];
			choose(out, &count, param->name, xasprintf("%lld", value),
			       xstrdup(role_why(role)),
			       xasprintf("--arg '{name: %s, scalar: %s, value: ...}'", param->name,
					 t));
			continue;
		}
		bool group = param->kind == ARG_LOCAL || param->constant;
		const struct shape *extent = group ? &rq->local : &rq->global;
		const char *kind = param->kind == ARG_LOCAL ? "local"
				   : param->constant	    ? "constant"
							    : "buffer";
		choose(out, &count, param->name,
		       xasprintf("%lld %ss", shape_volume(extent), t),
		       xasprintf(param->kind == ARG_LOCAL ? "one a work-item of the work-group %s"
				 : param->constant
					 ? "one a work-item of the work-group %s, as constant "
					   "memory is small"
					 : "one a work-item of the global size %s",
				 group ? local : global),
		       xasprintf("--arg '{name: %s, %s: %s, count: ...}'", param->name, kind, t));
	}
	struct shape simulated;
	if (adhoc_shrinks(rq, binding, &simulated)) {
		char run[SHAPE_RUN_TEXT_MAX];
		choose(out, &count, "simulated launch",
		       xstrdup(shape_run_text(&simulated, &rq->local, " ", run)),
		       binding->costly
			       ? xasprintf("global %s is too costly to simulate in time, as a "
					   "probe of these work-groups showed: they are where "
					   "work-groups meet; devices run the launch as given",
					   global)
			       : xasprintf("global %s is too big to simulate in time (over %d "
					   "work-items): a few work-groups of the same shape, where "
					   "they meet; devices run the launch as given",
					   global, SHAPE_SIMULATED_ITEMS),
		       xstrdup("a --global of at most 16384 work-items, simulated whole"));
		for (size_t i = 0; i < rq->nspecs; i++) {
			if (binding->scaled[i] == NULL)
				continue;
			char *name = xasprintf("--arg %zu", i + 1);
			choose(out, &count, name, xstrdup(binding->scaled[i]),
			       xasprintf("its number is the global size's, so the simulated launch "
					 "scales it"),
			       xstrdup("a number that is none of the global size's extents, kept "
				       "as given"));
			free(name);
		}
	}
	return count;
}

/* The choices as the text report says them: a heading, a line each, and the scalars no
 * name placed named again at the end. NULL without any. Caller frees. */
static char *choices_text(const struct adhoc_request *rq, const struct kernel_sig *sig,
			  const struct adhoc_binding *binding, const struct chosen_value *chosen,
			  size_t count, const char *command)
{
	if (count == 0)
		return NULL;
	struct strbuf out = { 0 };
	strbuf_printf(&out, "%s: %s: no --arg or option gives these, so clharness chose them:\n",
		      command, rq->kernel);
	for (size_t i = 0; i < count; i++)
		strbuf_printf(&out, "  %s = %s: %s\n", chosen[i].name, chosen[i].value,
			      chosen[i].why);
	struct strbuf unplaced = { 0 };
	size_t nunplaced = 0;
	for (size_t p = 0; p < sig->count; p++) {
		if (binding->spec_of[p] >= 0 || sig->params[p].kind != ARG_SCALAR ||
		    !placed_by_no_name(binding, p))
			continue;
		strbuf_printf(&unplaced, "%s%s", nunplaced++ ? ", " : "", sig->params[p].name);
	}
	if (nunplaced)
		strbuf_printf(&out, "  could not place %s by name: give %s with --arg\n",
			      unplaced.data, nunplaced > 1 ? "them" : "it");
	for (size_t i = 0; i < count; i++) {
		if (strncmp(chosen[i].override, "--arg '", 7) == 0) {
			strbuf_printf(&out, "  give another with --arg, e.g. %s\n",
				      chosen[i].override);
			break;
		}
	}
	strbuf_free(&unplaced);
	return strbuf_take(&out);
}

/* Says the choices on the report's stream in text, and into its SARIF and HTML logs. */
static void say_choices(const struct adhoc_request *rq, const struct kernel_sig *sig,
			const struct adhoc_binding *binding, const struct chosen_value *chosen,
			size_t count, struct reporter *rp, const char *command)
{
	for (size_t i = 0; rp->findlog && i < count; i++)
		findlog_chosen(rp->findlog, &chosen[i]);
	char *text = choices_text(rq, sig, binding, chosen, count, command);
	if (text && rp->format == REPORT_TEXT)
		fputs(text, rp->out);
	free(text);
}

void adhoc_say_choices(const struct adhoc_request *rq, const struct kernel_sig *sig,
		       const struct adhoc_binding *binding, struct reporter *rp,
		       const char *command)
{
	struct chosen_value *chosen;
	size_t count = adhoc_choices(rq, sig, binding, &chosen);
	say_choices(rq, sig, binding, chosen, count, rp, command);
	chosen_values_free(chosen, count);
}

/* A --arg, with the parameter's name put first where the spec gives none: buffers need
 * one, and reports read better with it. */
static void given_arg(struct strbuf *out, const char *spec, const struct kernel_param *p)
{
	struct spec s;
	struct diag_list ignored = { 0 };
	bool named = read_spec(spec, 0, &s, &ignored) && s.name != NULL;
	diag_list_free(&ignored);
	free(s.name);
	const char *open = strchr(spec, '{');
	if (named || open == NULL) {
		strbuf_puts(out, spec);
		return;
	}
	strbuf_append(out, spec, (size_t)(open - spec) + 1);
	strbuf_printf(out, "name: %s, %s", p->name, open + 1);
}

/* A shape as a case file writes it: a plain size in 1-D, a list of one a dimension in
 * N-D. Caller frees. */
static char *yaml_shape(const struct shape *s)
{
	struct strbuf out = { 0 };
	strbuf_puts(&out, s->dims > 1 ? "[" : "");
	for (unsigned d = 0; d < s->dims; d++)
		strbuf_printf(&out, "%s%lld", d ? ", " : "", s->d[d]);
	strbuf_puts(&out, s->dims > 1 ? "]" : "");
	return strbuf_take(&out);
}

/* `text` for inside YAML's single quotes, where a quote is written twice. Caller frees. */
static char *single_quoted(const char *text)
{
	struct strbuf q = { 0 };
	for (const char *c = text; *c; c++) {
		strbuf_append(&q, c, 1);
		if (*c == '\'')
			strbuf_append(&q, c, 1);
	}
	return strbuf_take(&q);
}

/* The check: section of --expect, each buffer against its values, as a case says it:
 * reference: {file: ...} or {values: [...]}. "" without one. Caller frees. */
static char *expected_checks(const struct adhoc_request *rq)
{
	struct strbuf out = { 0 };
	for (size_t i = 0; i < rq->nexpects; i++) {
		const char *eq = strchr(rq->expects[i], '=');
		const char *value = eq + 1;
		strbuf_puts(&out, i ? "" : "check:\n");
		if (*value == '[') {
			strbuf_printf(&out, "  %.*s: {reference: {values: %s}}\n",
				      (int)(eq - rq->expects[i]), rq->expects[i], value);
		} else {
			char *quoted = single_quoted(value);
			strbuf_printf(&out, "  %.*s: {reference: {file: '%s'}}\n",
				      (int)(eq - rq->expects[i]), rq->expects[i], quoted);
			free(quoted);
		}
	}
	return strbuf_take(&out);
}

char *adhoc_case_text(const struct adhoc_request *rq, const struct kernel_sig *sig,
		      const struct adhoc_binding *binding, enum input_set set,
		      const char *kernel_file, int *spec_line)
{
	char *quoted = single_quoted(kernel_file);
	char *options = rq->options && *rq->options ? single_quoted(rq->options) : NULL;
	char global[SHAPE_TEXT_MAX], local[SHAPE_TEXT_MAX];
	shape_format(&rq->global, global);
	shape_format(&rq->local, local);
	struct strbuf out = { 0 };
	strbuf_printf(&out,
		      "# Written by clharness check: kernel %s at global %s, local %s; the\n"
		      "# arguments not given with --arg come from its signature (%s inputs).\n"
		      "# To compare an output with a CPU reference, mark its buffer output: true\n"
		      "# and add a check: for it with a reference.\n",
		      rq->kernel, global, local, adhoc_set_name(set));
	struct shape simulated;
	if (adhoc_shrinks(rq, binding, &simulated))
		strbuf_printf(
			&out,
			"# Global %s is too big to simulate in time: Oclgrind runs sim_sizes,\n"
			"# a few work-groups of the same shape, where work-groups meet; devices\n"
			"# run the launch as given.\n",
			global);
	/* Devices run the launch as given and nothing else: a smaller one may break what
	 * the given arguments assume of it. */
	char *sizes = yaml_shape(&rq->global), *sim_sizes = yaml_shape(&simulated);
	char *locals = yaml_shape(&rq->local);
	strbuf_printf(&out,
		      "about: %s checked ad hoc for races and other bugs, %s inputs\n"
		      "kernel: {file: '%s', name: %s}\n"
		      "sizes: [%s]\n"
		      "sim_sizes: [%s]\n"
		      "local: [%s]\n"
		      "global: %s\n"
		      "%s"
		      "%s%s%s"
		      "args:%s\n",
		      rq->kernel, adhoc_set_name(set), quoted, rq->kernel, sizes, sim_sizes, locals,
		      rq->global.dims == 1   ? "N"
		      : rq->global.dims == 2 ? "[N, M]"
					     : "[N, M, K]",
		      shape_is_ragged(&rq->global, &rq->local)
			      ? "non_uniform: true  # the last work-group is smaller\n"
			      : "",
		      options ? "options: '" : "", options ? options : "", options ? "'\n" : "",
		      sig->count == 0 ? " []" : "");
	free(options);
	char *checks = expected_checks(rq);
	free(sizes);
	free(sim_sizes);
	free(locals);
	free(quoted);
	for (size_t p = 0; p < sig->count; p++) {
		int line = 1;
		for (const char *c = out.data; *c; c++)
			line += *c == '\n';
		strbuf_puts(&out, "  - ");
		struct strbuf arg = { 0 };
		long long given = binding->spec_of[p];
		if (given >= 0) {
			given_arg(&arg, binding->scaled[given] ? binding->scaled[given] : rq->specs[given],
				  &sig->params[p]);
			spec_line[given] = line;
		} else {
			generated_arg(&arg, rq, &sig->params[p], binding->records[p],
				      binding->roles[p], set);
		}
		/* A buffer --expect checks is read back, as a case's checked buffer is. */
		char *close = expected(rq, sig->params[p].name) ? strrchr(arg.data, '}') : NULL;
		if (close)
			strbuf_printf(&out, "%.*s, output: true%s", (int)(close - arg.data),
				      arg.data, close);
		else
			strbuf_puts(&out, arg.data);
		strbuf_free(&arg);
		strbuf_puts(&out, given >= 0 ? "\n" : "  # from the signature\n");
	}
	/* Each --expect's check, a line each after "check:". */
	int line = 1;
	for (const char *c = out.data; *c; c++)
		line += *c == '\n';
	for (size_t i = 0; i < rq->nexpects; i++)
		spec_line[rq->nspecs + i] = line + 1 + (int)i;
	strbuf_puts(&out, checks);
	free(checks);
	return strbuf_take(&out);
}

/* The outputs one target left for one input set. */
struct outputs {
	enum input_set set;
	struct shape n;
	char *target;
	struct kept_buffer *kept;
	size_t nkept;
};

/* "--arg 2" or "--expect 1": the option whose line of the generated case is line i of
 * spec_line (the --args first, then the --expects). Caller frees. */
static char *spec_origin(const struct adhoc_request *rq, size_t i)
{
	return i < rq->nspecs ? xasprintf("--arg %zu", i + 1)
			      : xasprintf("--expect %zu", i - rq->nspecs + 1);
}

/* What the check gathers while its results come in. */
struct check_state {
	const struct adhoc_request *rq;
	const char *label;    /* what the generated cases are called in diagnostics */
	const int *spec_line; /* where each --arg stands in the generated cases */
	struct reporter *rp;
	struct test_case **cases; /* one an input set; NULL where the set does not apply */
	bool shrunk;		  /* the simulator runs a smaller launch than --global */
	struct finding_list merged;
	struct findagree agree; /* each target's findings, for the next at the same launch */
	struct outputs *outputs;
	size_t noutputs;
	bool failed;
	struct run_tally tally;
	size_t wrong; /* runs whose output --expect's values did not match */
	struct chosen_value *chosen; /* what check chose for the arguments no --arg gives */
	size_t nchosen;
	const struct kernel_sig *sig;
	const struct adhoc_binding *binding;
	/* Per target, the runs that ran to their end and those that hung or crashed: a
	 * kernel that hangs or crashes with some of the inputs check chose and not with
	 * others needs values it was not given, which is no verdict on it. */
	struct target_runs {
		char *target;
		size_t ended, lost;
	} *per_target;
	size_t ntargets;
};

/* The tally of `target` in st, made on first use. */
static struct target_runs *target_runs_of(struct check_state *st, const char *target)
{
	for (size_t i = 0; i < st->ntargets; i++)
		if (strcmp(st->per_target[i].target, target) == 0)
			return &st->per_target[i];
	st->per_target = xreallocarray(st->per_target, st->ntargets + 1, sizeof *st->per_target);
	st->per_target[st->ntargets] = (struct target_runs){ xstrdup(target), 0, 0 };
	return &st->per_target[st->ntargets++];
}

typedef bool chosen_filter(const struct check_state *st, const struct kernel_param *p,
			   const char *name);

/* The chosen values of the parameters `wanted` accepts, by name ("in, rows") or with
 * their values ("in = 3072 floats, rows = 64"), in *list, and the --arg of the first;
 * NULL, and *list NULL, where there are none. */
static const char *chosen_list(const struct check_state *st, chosen_filter *wanted,
			       const char *name, bool values, char **list)
{
	struct strbuf out = { 0 };
	const char *override = NULL;
	for (size_t i = 0; i < st->nchosen; i++) {
		const struct kernel_param *param = NULL;
		for (size_t p = 0; p < st->sig->count && param == NULL; p++)
			if (strcmp(st->sig->params[p].name, st->chosen[i].name) == 0)
				param = &st->sig->params[p];
		if (param == NULL || !wanted(st, param, name))
			continue;
		strbuf_printf(&out, "%s%s", out.len ? ", " : "", st->chosen[i].name);
		if (values)
			strbuf_printf(&out, " = %s", st->chosen[i].value);
		override = override ? override : st->chosen[i].override;
	}
	*list = strbuf_take(&out);
	return override;
}

/* The chosen values of the parameters `wanted` accepts, "in = 3072 floats, rows = 64",
 * and how to give others; NULL where there are none. Caller frees. */
static char *chosen_of(const struct check_state *st, chosen_filter *wanted, const char *name)
{
	char *list;
	const char *override = chosen_list(st, wanted, name, true, &list);
	char *why = override ? xasprintf("%s; if the kernel expects other values, give them "
					 "with --arg, e.g. %s",
					 list, override)
			     : NULL;
	free(list);
	return why;
}

/* Whether parameter p is a scalar that no name placed. */
static bool unplaced_scalar(const struct check_state *st, const struct kernel_param *p)
{
	return p->kind == ARG_SCALAR &&
	       placed_by_no_name(st->binding, (size_t)(p - st->sig->params));
}

/* What an out-of-bounds access of global or constant memory rests on: the buffers' counts
 * (only the accessed one's where its name is known) and the scalars no name placed, from
 * which an index may come. */
static bool bounds_of_global(const struct check_state *st, const struct kernel_param *p,
			     const char *name)
{
	if (p->kind == ARG_BUFFER)
		return name == NULL || strcmp(p->name, name) == 0;
	return unplaced_scalar(st, p);
}

static bool bounds_of_local(const struct check_state *st, const struct kernel_param *p,
			    const char *name)
{
	(void)name;
	return p->kind == ARG_LOCAL || unplaced_scalar(st, p);
}

static bool unplaced_scalar_named(const struct check_state *st, const struct kernel_param *p,
				  const char *name)
{
	(void)name;
	return unplaced_scalar(st, p);
}

/* Whether a finding's input sets include a scalar set (scalar) or another one. */
static bool seen_in_sets(const struct finding *f, bool scalar)
{
	for (int s = 0; s < SET_COUNT; s++)
		if (adhoc_set_is_scalar((enum input_set)s) == scalar &&
		    finding_shown_by(f, adhoc_set_name((enum input_set)s)))
			return true;
	return false;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The name of the pointer or array an access at line:col of file goes through, where
 * the text shows it: a read's column is at the name (tile[i]), a write's at the '=' of
 * its assignment after the subscripted name (tile[i] = v). NULL where neither holds.
 * Caller frees. */
static char *accessed_name(const char *file, int line, int col)
{
	size_t len;
	char *text = file && line > 0 && col > 0 ? read_file(file, &len) : NULL;
	if (text == NULL)
		return NULL;
	const char *start = text;
	for (int l = 1; l < line && start; l++)
		start = (start = strchr(start, '\n')) ? start + 1 : NULL;
	const char *end = start ? strchrnul(start, '\n') : NULL;
	char *name = NULL;
	if (start && (size_t)(col - 1) < (size_t)(end - start)) {
		const char *at = start + col - 1;
		if (*at == '=' || (strchr("+-*/|&^", *at) && at[1] == '=')) {
			const char *p = at;
			while (p > start && p[-1] == ' ')
				p--;
			if (p > start && p[-1] == ']') {
				int depth = 0;
				do {
					p--;
					depth += *p == ']';
					depth -= *p == '[';
				} while (p > start && depth > 0);
				while (p > start && p[-1] == ' ')
					p--;
			}
			at = p;
			while (at > start && ident_char(at[-1]))
				at--;
		}
		const char *stop = at;
		while (stop < end && ident_char(*stop))
			stop++;
		if (stop > at && !isdigit((unsigned char)*at))
			name = xstrndup(at, (size_t)(stop - at));
	}
	free(text);
	return name;
}

/* What the harness chose that finding f, of the findings `all`, may follow from; NULL
 * where it is the kernel's whatever was chosen. The input sets that showed it are its
 * own and those of the same finding among `earlier` runs'. `scalar_sets_ran`: whether
 * every set that varies the unplaced scalars has run, so that a finding none of them
 * showed rests on their value in the others. Caller frees. */
static char *guess_behind(const struct check_state *st, const struct finding_list *all,
			  const struct finding *f, const struct finding_list *earlier,
			  bool scalar_sets_ran)
{
	/* Only a plain read or write past the end: an index below zero, a misaligned or a
	 * forbidden access is the kernel's whatever the buffers' sizes. */
	bool past_end = f->kind == FINDING_OUT_OF_BOUNDS && !f->outside_buffers &&
			(strcmp(f->what, "read") == 0 || strcmp(f->what, "write") == 0 ||
			 strncmp(f->what, "write past the end of ", 22) == 0);
	/* Past an array's own bound inside a struct, the access past the buffer follows. */
	for (size_t i = 0; past_end && i < all->count; i++)
		past_end = !(all->items[i].kind == FINDING_OUT_OF_BOUNDS &&
			     strcmp(all->items[i].what, "index") == 0 &&
			     all->items[i].at.line == f->at.line);
	if (past_end && f->space &&
	    (strcmp(f->space, "global") == 0 || strcmp(f->space, "constant") == 0)) {
		const char *guarded = strstr(f->what, "past the end of ");
		char *named = guarded ? xstrdup(guarded + 16)
				      : accessed_name(f->file, f->at.line, f->at.col);
		char *why = chosen_of(st, bounds_of_global, named);
		free(named);
		if (why)
			return why;
	}
	if (past_end && f->space && strcmp(f->space, "local") == 0) {
		char *why = chosen_of(st, bounds_of_local, NULL);
		if (why)
			return why;
	}
	const struct finding *cause = finding_cause(all, f);
	if (cause && cause != f && cause->rests_on)
		return xstrdup(cause->rests_on);
	/* Writes that missed memory sized by a guess leave the words they were meant for
	 * without a value, wherever those are read. */
	for (size_t i = 0; f->kind == FINDING_UNINITIALIZED && i < all->count; i++)
		if (all->items[i].kind == FINDING_OUT_OF_BOUNDS && all->items[i].rests_on &&
		    all->items[i].at.access != 'r')
			return xstrdup(all->items[i].rests_on);
	bool in_plain = seen_in_sets(f, false);
	bool in_scalar = seen_in_sets(f, true);
	for (size_t i = 0; earlier && i < earlier->count; i++) {
		if (!finding_same(&earlier->items[i], f))
			continue;
		in_plain |= seen_in_sets(&earlier->items[i], false);
		in_scalar |= seen_in_sets(&earlier->items[i], true);
	}
	if (in_scalar == in_plain || (!in_scalar && !scalar_sets_ran))
		return NULL;
	char *names;
	const char *override = chosen_list(st, unplaced_scalar_named, NULL, false, &names);
	char *why = override ? xasprintf("only the %s inputs showed it, where clharness set %s, "
					 "which no name places, to %s; give the kernel's own "
					 "values with --arg, e.g. %s",
					 in_scalar ? f->input_set : "random, zeros or repeats",
					 names,
					 in_scalar ? "0 or 1" : "the global size's first extent",
					 override)
			     : NULL;
	free(names);
	return why;
}

/* Marks each finding of `list` that rests on what clharness chose a warning, saying so;
 * those marked already stay as they are. */
static void mark_guesses(const struct check_state *st, struct finding_list *list,
			 const struct finding_list *earlier, bool scalar_sets_ran)
{
	/* Causes first: an uninitialised value rests on the access that left it. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < list->count; i++) {
			struct finding *f = &list->items[i];
			if (f->rests_on || (pass == 0) != (f->kind != FINDING_UNINITIALIZED))
				continue;
			f->rests_on = guess_behind(st, list, f, earlier, scalar_sets_ran);
		}
	}
	/* Only then warnings: a cause is found among the errors. */
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].rests_on && list->items[i].severity == DIAG_ERROR)
			list->items[i].severity = DIAG_WARNING;
}

static void check_emit(void *ctx, struct result *r)
{
	struct check_state *st = ctx;
	enum input_set set = SET_RANDOM;
	for (int s = 0; s < SET_COUNT; s++)
		if (st->cases[s] && strcmp(st->cases[s]->path, r->case_path) == 0 &&
		    strcmp(st->cases[s]->name, r->case_name) == 0)
			set = (enum input_set)s;
	/* Only a target that runs small sizes ran the shrunk launch; racecheck, which finds
	 * too, ran it whole. */
	if (st->shrunk && r->simulated && !shape_equal(&r->n, &st->rq->global))
		r->shrunk_from = st->rq->global;
	r->chosen = st->chosen;
	r->nchosen = st->nchosen;
	for (size_t i = 0; i < r->findings.count; i++) {
		free(r->findings.items[i].input_set);
		r->findings.items[i].input_set = xstrdup(adhoc_set_name(set));
	}
	mark_guesses(st, &r->findings, &st->merged, false);
	findagree_take(&st->agree, r);
	finding_list_merge(&st->merged, &r->findings);
	run_tally_take(&st->tally, r);
	bool lost = r->verdict != VERDICT_PASS && r->verdict != VERDICT_WRONG_OUTPUT &&
		    r->verdict != VERDICT_SKIP && r->findings.count == 0;
	/* A system call the sandbox stopped is the kernel's whatever its inputs. */
	bool hung = (r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_CRASH) &&
		    !r->sandbox_stop;
	if (r->verdict != VERDICT_SKIP) {
		bool ended = r->verdict != VERDICT_TIMEOUT && r->verdict != VERDICT_CRASH;
		struct target_runs *runs = target_runs_of(st, r->target);
		runs->lost += !ended;
		runs->ended += ended && !result_cut_short(r);
	}
	if (hung && st->nchosen > 0) {
		/* Whether it is the kernel's is known once every set has run on the target. */
		r->expect = EXPECT_MET;
		char *message = xasprintf(
			"%s, with values clharness chose (listed above); a kernel that ends with "
			"some of them and not with others needs values it was not given: give "
			"them with --arg",
			r->message ? r->message : verdict_name(r->verdict));
		free(r->message);
		r->message = message;
	}
	/* Only --expect gives a check an output to be wrong; the findings fail it once
	 * every run has been seen, some resting on what clharness chose. */
	st->failed |= (lost && !(hung && st->nchosen > 0)) || r->output == VERDICT_WRONG_OUTPUT;
	if (r->nkept > 0) {
		st->outputs = xreallocarray(st->outputs, st->noutputs + 1, sizeof *st->outputs);
		st->outputs[st->noutputs++] =
			(struct outputs){ set, r->n, xstrdup(r->target), r->kept, r->nkept };
		r->kept = NULL;
		r->nkept = 0;
	}
	/* A case error at a --arg's line of the generated case is that --arg's; a check's,
	 * the --expect's. */
	for (size_t i = 0; r->file && i < st->rq->nspecs + st->rq->nexpects; i++) {
		if (strcmp(r->file, st->label) != 0 || r->line != st->spec_line[i])
			continue;
		free(r->file);
		r->file = spec_origin(st->rq, i);
		r->line = r->col = 0;
	}
	/* Any other line of the generated case is no line of the kernel's file, whose name
	 * the case bears: the launch it stands for is the kernel's, at no line. */
	if (r->file && strcmp(r->file, st->label) == 0) {
		free(r->file);
		r->file = xstrdup(st->rq->kernel_path);
		r->line = r->col = 0;
	}
	st->wrong += r->output == VERDICT_WRONG_OUTPUT;
	/* The text report lists each finding once, after the runs, with its input sets. */
	if (st->rp->format == REPORT_TEXT)
		finding_list_free(&r->findings);
	report_result(st->rp, r);
}

/* Compares what two targets left in the buffers for one input set; reports the first
 * buffer that differs. Returns whether one did. */
static bool compare_outputs(const struct adhoc_request *rq, const struct outputs *a,
			    const struct outputs *b, const struct ulp_bound *bound,
			    struct strbuf *out)
{
	for (size_t k = 0; k < a->nkept && k < b->nkept; k++) {
		const struct kept_buffer *x = &a->kept[k], *y = &b->kept[k];
		struct kept_difference d;
		if (kept_buffer_diff(x, y, bound->ulps, &d) == 0)
			continue;
		char *place = kept_difference_place(x, &d);
		char apart[224] = "";
		if (elem_is_float(x->type) && bound->ulps > 0)
			snprintf(apart, sizeof apart, ", %.3g ulp apart where its built-ins allow %g (%s)",
				 d.ulps, bound->ulps, bound->why);
		else if (elem_is_float(x->type))
			snprintf(apart, sizeof apart,
				 ", %.3g ulp apart where it calls no built-in with an error", d.ulps);
		char *what = xasprintf("with the %s inputs, %s and %s leave different values in "
				       "%s: %s is %.*g on %s and %.*g on %s%s; %zu of %zu %s differ",
				       adhoc_set_name(a->set), a->target, b->target, x->name, place,
				       digits_to_differ(d.a, d.b), d.a, a->target,
				       digits_to_differ(d.a, d.b), d.b, b->target, apart, d.differ,
				       d.compared, x->lanes > 1 ? "lanes" : "elements");
		diag_render(out, rq->kernel_path, 0, 0, DIAG_WARNING, what, false);
		free(place);
		free(what);
		return true;
	}
	return false;
}

/* Maps the loader's diagnostics on a --arg's or --expect's line of the generated case
 * onto it. */
static void place_in_specs(struct diag_list *diags, const struct adhoc_request *rq,
			   const int *spec_line)
{
	for (size_t d = 0; d < diags->count; d++) {
		for (size_t i = 0; i < rq->nspecs + rq->nexpects; i++) {
			if (diags->items[d].line != spec_line[i])
				continue;
			free(diags->items[d].file);
			diags->items[d].file = spec_origin(rq, i);
			diags->items[d].line = 0;
			diags->items[d].col = 0;
			char *message = xasprintf("%s (in '%s')", diags->items[d].message,
						  i < rq->nspecs ? rq->specs[i]
								 : rq->expects[i - rq->nspecs]);
			free(diags->items[d].message);
			diags->items[d].message = message;
		}
	}
}

/* The path of `file` as seen from the folder of `from`, so a saved case finds its kernel
 * wherever both are moved together; absolute when there is no shorter way. Caller frees. */
static char *path_from(const char *from, const char *file)
{
	char *dir = xstrdup(from);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	char *real_dir = realpath(dir, NULL);
	char *real_file = realpath(file, NULL);
	free(dir);
	if (real_file == NULL || real_dir == NULL || strcmp(real_dir, "/") == 0) {
		free(real_dir);
		return real_file ? real_file : xstrdup(file);
	}
	size_t i = 0;
	while (real_file[i] && real_file[i] == real_dir[i])
		i++;
	/* The last '/' both share: the folder that holds them both. */
	size_t common = i;
	if (!(real_dir[i] == '\0' && real_file[i] == '/'))
		while (common > 0 && real_file[common] != '/')
			common--;
	if (common == 0) {
		/* Only the root in common: the absolute path is the clearer one. */
		free(real_dir);
		return real_file;
	}
	struct strbuf rel = { 0 };
	for (const char *p = real_dir + common; *p; p++)
		if (*p == '/')
			strbuf_puts(&rel, "../");
	strbuf_puts(&rel, real_file + common + 1);
	free(real_file);
	free(real_dir);
	return strbuf_take(&rel);
}

char *adhoc_kernel_file_for(const char *save_path, const char *kernel_path)
{
	char *dir = xstrdup(save_path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *root = catalogue_root(slash ? dir : ".");
	free(dir);
	if (root == NULL)
		return path_from(save_path, kernel_path);
	char *real = realpath(kernel_path, NULL);
	char *file = NULL;
	if (real && path_within(real, root) && strlen(real) > strlen(root))
		file = xstrdup(real + strlen(root) + (strcmp(root, "/") != 0));
	else
		fprintf(stderr,
			"clharness: cannot save %s: it is in the catalogue at %s, and its cases "
			"may name only kernels inside it, which %s is not; save it elsewhere "
			"or move the kernel into the catalogue\n",
			save_path, root, kernel_path);
	free(real);
	free(root);
	return file;
}

/* Writes the random set's case where --save says, naming the kernel from there. */
static int save_case(const struct adhoc_request *rq, const struct kernel_sig *sig,
		     const struct adhoc_binding *run_binding)
{
	/* A saved case is run later on any target, the simulator's shrunk sizes too. */
	struct adhoc_binding saved = *run_binding;
	saved.unsimulated = false;
	const struct adhoc_binding *binding = &saved;
	char *kernel_file = adhoc_kernel_file_for(rq->save_path, rq->kernel_path);
	if (kernel_file == NULL)
		return -1;
	int *lines = xcalloc(rq->nspecs + 1, sizeof *lines);
	char *text = adhoc_case_text(rq, sig, binding, SET_RANDOM, kernel_file, lines);
	FILE *f = fopen(rq->save_path, "w");
	int status = 0;
	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "clharness: cannot write %s: %s\n", rq->save_path, strerror(errno));
		status = -1;
	} else {
		fprintf(stderr, "clharness: wrote %s\n", rq->save_path);
	}
	free(text);
	free(lines);
	free(kernel_file);
	return status;
}

/* The kernel's signature, from the first simulator among the selected targets (else the
 * first target), or the failure that stopped it, reported. */
static int inspect(const struct adhoc_request *rq, struct reporter *rp, struct kernel_sig *sig,
		   bool *simulator)
{
	struct run_options opt = { .repeat = 1 };
	struct selection sel;
	selection_open(&sel, rq->patterns, rq->npatterns, NULL, 0, &opt, rq->timeout_s);
	if (sel.count == 0) {
		fprintf(stderr, "clharness: no OpenCL device or simulator to check on%s%s\n",
			sel.nmissing ? ": " : " (see clharness devices)",
			sel.nmissing ? sel.missing[0].reason : "");
		selection_free(&sel);
		return 2;
	}
	size_t pick = 0;
	for (size_t t = sel.count; t-- > 0;)
		if (selection_can(&sel, t, CAN_ONLY_SMALL_SIZES))
			pick = t;
	if (simulator)
		*simulator = selection_can(&sel, pick, CAN_ONLY_SMALL_SIZES);
	size_t index;
	struct dispatcher *d = selection_dispatcher(&sel, pick, &index);
	struct result failure = { .case_name = xstrdup(rq->kernel),
				  .case_path = xstrdup(rq->kernel_path),
				  .target = xstrdup(selection_target(&sel, pick)->name),
				  .backend = xstrdup("check") };
	int status = 0;
	if (dispatch_inspect(d, index, rq->kernel_path, rq->kernel, rq->options ? rq->options : "",
			     sig, &failure) < 0) {
		failure.output = failure.verdict;
		report_result(rp, &failure);
		status = 1;
	}
	result_free(&failure);
	selection_free(&sel);
	return status;
}

int adhoc_prepare(const struct adhoc_request *rq, struct reporter *rp, struct kernel_sig *sig,
		  struct adhoc_binding *binding)
{
	int status = inspect(rq, rp, sig, NULL);
	if (status != 0)
		return status;
	struct diag_list diags = { 0 };
	if (adhoc_bind(rq, sig, binding, &diags) < 0) {
		struct strbuf msg = { 0 };
		diag_list_render(&msg, &diags, rp->colour);
		if (msg.data)
			fputs(msg.data, stderr);
		strbuf_free(&msg);
		status = 2;
	}
	diag_list_free(&diags);
	return status;
}

/* The most work-items a launch may have that check simulates whole without a probe of
 * its cost: below it Oclgrind takes well under a second unless a kernel loops heavily. */
enum { PROBE_ABOVE_ITEMS = 1024 };

/* Whether the whole launch, too few items to be shrunk for its size, is too costly to
 * simulate in time: a few of its work-groups are simulated with the random inputs, and
 * their time scaled to all of them. Says what it found on `out` where it is. Asked only
 * where the check's targets include the simulator. */
static bool too_costly(const struct adhoc_request *rq, const struct kernel_sig *sig,
		       const struct adhoc_binding *binding, FILE *out)
{
	struct shape few;
	long long items = shape_volume(&rq->global);
	if (items <= PROBE_ABOVE_ITEMS || binding->tied_to_shape ||
	    !shape_few_groups(&rq->global, &rq->local, &few))
		return false;
	struct adhoc_request probe = *rq;
	probe.global = few;
	int *lines = xcalloc(rq->nspecs + rq->nexpects + 1, sizeof *lines);
	const char *slash = strrchr(rq->kernel_path, '/');
	char *text = adhoc_case_text(&probe, sig, binding, SET_RANDOM, rq->kernel_path, lines);
	free(lines);
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load_text(slash ? slash + 1 : rq->kernel_path, text, &diags);
	free(text);
	diag_list_free(&diags);
	if (tc == NULL)
		return false;
	/* A quarter of a run's limit: a probe that needs more says enough. */
	unsigned limit = rq->timeout_s / 4 > 0 ? rq->timeout_s / 4 : 1;
	struct sim_probe got;
	sim_probe_run(tc, limit, &got);
	case_free(tc);
	double whole_s;
	bool costly = sim_probe_too_costly(&got, (double)items / (double)shape_volume(&few),
					   rq->timeout_s, &whole_s);
	if (costly) {
		char few_text[SHAPE_RUN_TEXT_MAX], whole[SHAPE_TEXT_MAX];
		shape_run_text(&few, &rq->local, " ", few_text);
		if (got.ended)
			fprintf(out,
				"check: %s: a probe of %s took %.1f s under Oclgrind, so the whole "
				"launch (global %s) would take about %.0f s, over half of --timeout "
				"%u: it is shrunk as a big one is\n",
				rq->kernel, few_text, got.seconds, shape_format(&rq->global, whole),
				whole_s, rq->timeout_s);
		else
			fprintf(out,
				"check: %s: a probe of %s did not end under Oclgrind in %u s, so the "
				"whole launch (global %s) cannot be simulated in time: it is shrunk "
				"as a big one is\n",
				rq->kernel, few_text, limit, shape_format(&rq->global, whole));
	}
	return costly;
}

int adhoc_run(const struct adhoc_request *rq, struct reporter *rp)
{
	uint64_t start = clock_now_ns();
	struct kernel_sig sig = { 0 };
	bool simulator = false;
	int status = inspect(rq, rp, &sig, &simulator);
	if (status != 0)
		return status;

	if (sig.reqd_local[0] > 0) {
		/* The kernel says the one work-group shape it runs at: any other is a launch
		 * error on every target, which says less. */
		bool same = true;
		for (unsigned d = 0; d < 3; d++)
			same &= (long long)sig.reqd_local[d] == (d < rq->local.dims ? rq->local.d[d] : 1);
		if (!same) {
			/* As many dimensions as the launch has, or as the requirement needs. */
			unsigned dims = sig.reqd_local[2] > 1 ? 3 : sig.reqd_local[1] > 1 ? 2 : 1;
			dims = dims > rq->local.dims ? dims : rq->local.dims;
			struct shape wanted = { .dims = dims };
			for (unsigned d = 0; d < dims; d++)
				wanted.d[d] = (long long)sig.reqd_local[d];
			char text[SHAPE_TEXT_MAX];
			fprintf(stderr,
				"clharness: %s requires work-groups of %zux%zux%zu "
				"(reqd_work_group_size): launch it with --local %s\n",
				rq->kernel, sig.reqd_local[0], sig.reqd_local[1], sig.reqd_local[2],
				shape_format(&wanted, text));
			kernel_sig_free(&sig);
			return 2;
		}
	}
	struct adhoc_binding binding = { 0 };
	struct diag_list diags = { 0 };
	int *spec_line = xcalloc(rq->nspecs + rq->nexpects + 1, sizeof *spec_line);
	/* Named as if it stood in the current folder, the generated case finds the kernel by
	 * the very path the user gave, which its reports then show. */
	const char *slash = strrchr(rq->kernel_path, '/');
	const char *label = slash ? slash + 1 : rq->kernel_path;
	struct shape simulated;
	struct check_state st = {
		.rq = rq,
		.label = label,
		.spec_line = spec_line,
		.rp = rp,
		.cases = xcalloc(SET_COUNT, sizeof *st.cases),
	};
	struct test_case **cases = xcalloc(SET_COUNT, sizeof *cases);
	size_t ncases = 0;
	if (adhoc_bind(rq, &sig, &binding, &diags) < 0)
		goto setup_failed;
	binding.unsimulated = !simulator;
	/* Not for --expect, whose values are the whole launch's. */
	if (simulator && rq->nexpects == 0 &&
	    !shape_shrink_for_simulation(&rq->global, &rq->local, &simulated))
		binding.costly =
			too_costly(rq, &sig, &binding, rp->format == REPORT_TEXT ? rp->out : stderr);
	st.shrunk = adhoc_shrinks(rq, &binding, &simulated);
	for (int s = 0; s < SET_COUNT; s++) {
		/* A shrunk launch is whole work-groups; where the kernel takes a size, the
		 * scalar-tail set gives it a ragged last group as well. */
		bool wanted = s < SET_CHECK_COUNT ||
			      (st.shrunk && s == SET_SCALAR_TAIL && rq->local.d[0] > 1);
		/* Expected values are those of the inputs given, which one set keeps. */
		wanted &= rq->nexpects == 0 || s == SET_RANDOM;
		if (!wanted || !adhoc_set_applies((enum input_set)s, &sig, &binding))
			continue;
		char *text = adhoc_case_text(rq, &sig, &binding, (enum input_set)s, rq->kernel_path,
					     spec_line);
		struct test_case *tc = case_load_text(label, text, &diags);
		free(text);
		if (tc == NULL) {
			place_in_specs(&diags, rq, spec_line);
			goto setup_failed;
		}
		free(tc->name);
		tc->name = xasprintf("%s %s", rq->kernel, adhoc_set_name((enum input_set)s));
		/* Every buffer the kernel may write is compared across targets. */
		for (size_t p = 0; p < sig.count; p++)
			if (sig.params[p].kind == ARG_BUFFER && !sig.params[p].read_only)
				tc->buffers[tc->steps[0].args[p].buffer].output = true;
		st.cases[s] = tc;
		cases[ncases++] = tc;
	}
	if (rq->nexpects && st.shrunk) {
		fprintf(stderr,
			"clharness: --expect gives the values of the whole launch, which Oclgrind "
			"cannot simulate in time (over %d work-items): expect the values of a "
			"smaller launch, or check without --expect\n",
			SHAPE_SIMULATED_ITEMS);
		status = 2;
		goto out;
	}
	if (rq->save_path && save_case(rq, &sig, &binding) < 0) {
		status = 2;
		goto out;
	}

	st.nchosen = adhoc_choices(rq, &sig, &binding, &st.chosen);
	st.sig = &sig;
	st.binding = &binding;
	say_choices(rq, &sig, &binding, st.chosen, st.nchosen, rp, "check");
	if (st.shrunk) {
		char run[SHAPE_RUN_TEXT_MAX], from[SHAPE_TEXT_MAX];
		fprintf(rp->format == REPORT_TEXT ? rp->out : stderr,
			"check: %s: global %s is too %s to simulate in time; Oclgrind runs %s "
			"in its place (%lld work-groups, where they meet%s), devices the launch "
			"as given, so the simulator's outputs have no device's to be compared "
			"with\n",
			rq->kernel, shape_format(&rq->global, from), binding.costly ? "costly" : "big",
			shape_run_text(&simulated, &rq->local, " ", run),
			shape_volume(&simulated) / shape_volume(&rq->local),
			st.cases[SET_SCALAR_TAIL] ? "; scalar-tail inputs make the last one ragged"
						  : "");
	} else if (binding.tied_to_shape &&
		   shape_shrink_for_simulation(&rq->global, &rq->local, &simulated)) {
		char from[SHAPE_TEXT_MAX];
		fprintf(rp->format == REPORT_TEXT ? rp->out : stderr,
			"check: %s: global %s is too big to simulate in time, but a number given "
			"with --arg equals more than one of its extents, so which one it follows "
			"in a smaller launch is unknown: Oclgrind runs the launch as given (raise "
			"--timeout if it needs longer, or check a smaller launch)\n",
			rq->kernel, shape_format(&rq->global, from));
	}
	struct run_options opt = { .repeat = 1,
				   .keep_outputs = true,
				   .suppressions = rq->suppressions };
	struct selection sel;
	selection_open(&sel, rq->patterns, rq->npatterns, cases, ncases, &opt, rq->timeout_s);
	selection_report_missing(&sel, rp, cases, ncases);
	for (size_t t = 0; t < sel.count; t++)
		selection_run(&sel, t, check_emit, &st);

	mark_guesses(&st, &st.merged, NULL, st.cases[SET_SCALAR_0] != NULL);
	st.failed |= finding_list_has_errors(&st.merged);
	for (size_t t = 0; t < st.ntargets; t++)
		st.failed |= st.per_target[t].lost > 0 && st.per_target[t].ended == 0;
	struct strbuf text = { 0 };
	finding_list_sort(&st.merged);
	/* The runs' findings, folded, with the input sets that showed them. */
	for (size_t i = 0; rp->findlog && i < st.merged.count; i++)
		findlog_add_finding(rp->findlog, &st.merged.items[i], rq->kernel_path, NULL);
	if (rp->format == REPORT_TEXT)
		for (size_t i = 0; i < st.merged.count; i++)
			report_finding(&text, &st.merged.items[i], rq->kernel_path, NULL,
				       rp->colour);
	size_t differing = 0;
	for (size_t i = 0; i < st.noutputs; i++) {
		for (size_t j = 0; j < i; j++) {
			if (st.outputs[j].set != st.outputs[i].set ||
			    !shape_equal(&st.outputs[j].n, &st.outputs[i].n))
				continue;
			const struct test_case *tc = st.cases[st.outputs[i].set];
			differing += compare_outputs(rq, &st.outputs[j], &st.outputs[i],
						     &tc->float_ulps, &text);
			break;
		}
	}
	if (text.len)
		fputs(text.data, rp->format == REPORT_TEXT ? rp->out : stderr);
	strbuf_free(&text);
	size_t errors = 0, warnings = 0, notes = 0, suppressed = 0, resting = 0;
	for (size_t i = 0; i < st.merged.count; i++) {
		resting += st.merged.items[i].rests_on != NULL;
		if (st.merged.items[i].suppressed)
			suppressed++;
		else if (st.merged.items[i].severity == DIAG_ERROR)
			errors++;
		else if (st.merged.items[i].severity == DIAG_WARNING)
			warnings++;
		else
			notes++;
	}
	/* A run that hung, crashed or was cut short found nothing because it checked
	 * nothing: "0 errors" alone would read as a clean kernel. */
	struct strbuf summary = { 0 };
	strbuf_printf(&summary, "check: %s on %zu target%s with %zu input set%s: ", rq->kernel,
		      sel.count, sel.count == 1 ? "" : "s", ncases, ncases == 1 ? "" : "s");
	run_tally_text(&summary, &st.tally, "runs");
	if (rq->nexpects)
		strbuf_printf(&summary, "; %zu run%s left other values than --expect gives",
			      st.wrong, st.wrong == 1 ? "" : "s");
	char *rest = resting ? xasprintf(" (%zu resting on values clharness chose: give "
					 "them with --arg to make %s)",
					 resting, resting == 1 ? "it a verdict" : "them verdicts")
			     : xstrdup("");
	strbuf_printf(&summary,
		      "; %zu error%s and %zu warning%s%s found%s%s; outputs differ between "
		      "targets for %zu input set%s; %.2f s\n",
		      errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", rest,
		      suppressed ? " (and suppressed ones, listed above)" : "",
		      notes ? " (and notes of what the simulator reported unconfirmed)" : "",
		      differing,
		      differing == 1 ? "" : "s", (clock_now_ns() - start) / 1e9);
	free(rest);
	for (size_t t = 0; t < st.ntargets && st.nchosen > 0; t++)
		if (st.per_target[t].lost > 0 && st.per_target[t].ended == 0)
			strbuf_printf(&summary,
				      "check: %s hung or crashed on %s with every input set: an "
				      "error of the kernel's, whatever values clharness chose\n",
				      rq->kernel, st.per_target[t].target);
	status = st.failed ? 1 : run_tally_status(&st.tally);
	if (status != 0 && !st.failed) {
		struct strbuf why = { 0 }, note = { 0 };
		run_tally_unchecked(&why, &st.tally, "run");
		strbuf_printf(&note, "nothing was checked: %s", why.data);
		strbuf_printf(&summary, "check: %s\n", note.data);
		annotate_diag(rq->kernel_path, 0, 0,
			      status == EXIT_SKIP ? DIAG_WARNING : DIAG_ERROR, note.data);
		strbuf_free(&note);
		if (rp->findlog)
			findlog_incomplete(rp->findlog, why.data);
		strbuf_free(&why);
	}
	/* Without the simulator no race or memory error was looked for, and with one device
	 * and no --expect no output was compared with anything either. */
	if (status == 0 && !selection_any_can(&sel, CAN_FIND) && sel.count > 0) {
		bool nothing_compared = sel.count == 1 && rq->nexpects == 0;
		const char *why =
			nothing_compared
				? "one device, no simulator and no --expect: no output was "
				  "compared with another, and no race or memory error was "
				  "looked for (add --device oclgrind)"
				: "no simulator among the targets: races, out-of-bounds and "
				  "uninitialised accesses were not looked for (add --device "
				  "oclgrind)";
		if (nothing_compared) {
			strbuf_printf(&summary, "check: nothing was checked: %s\n", why);
			status = EXIT_SKIP;
		} else
			strbuf_printf(&summary, "check: %s\n", why);
		if (rp->findlog)
			findlog_incomplete(rp->findlog, why);
		annotate_diag(rq->kernel_path, 0, 0, DIAG_WARNING, why);
	}
	if (rp->findlog && st.tally.cut_short) {
		char *why = xasprintf("%zu run%s cut short, the simulator having stopped "
				      "reporting: what it would have reported later is unknown",
				      st.tally.cut_short, st.tally.cut_short == 1 ? "" : "s");
		findlog_incomplete(rp->findlog, why);
		free(why);
	}
	fputs(summary.data, rp->format == REPORT_TEXT ? rp->out : stderr);
	strbuf_free(&summary);
	selection_free(&sel);
	goto out;

setup_failed : {
	struct strbuf msg = { 0 };
	diag_list_render(&msg, &diags, rp->colour);
	if (msg.data)
		fputs(msg.data, stderr);
	strbuf_free(&msg);
	status = 2;
}
out:
	for (size_t i = 0; i < st.noutputs; i++) {
		free(st.outputs[i].target);
		for (size_t k = 0; k < st.outputs[i].nkept; k++) {
			free(st.outputs[i].kept[k].name);
			free(st.outputs[i].kept[k].data);
		}
		free(st.outputs[i].kept);
	}
	free(st.outputs);
	chosen_values_free(st.chosen, st.nchosen);
	for (size_t t = 0; t < st.ntargets; t++)
		free(st.per_target[t].target);
	free(st.per_target);
	finding_list_free(&st.merged);
	findagree_free(&st.agree);
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
	free(st.cases);
	free(spec_line);
	diag_list_free(&diags);
	adhoc_binding_free(&binding);
	kernel_sig_free(&sig);
	return status;
}
