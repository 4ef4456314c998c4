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

#include "base/directives.h"
#include "base/util.h"
#include "case/gen.h"
#include "case/plan.h"
#include "case/suppress.h"
#include "case/testcase.h"
#include "case/ulps.h"
#include "case/yamlread.h"

struct loader {
	struct yaml_reader r;
	struct test_case *tc;
	struct fy_node *root;
	struct fy_node **unparsed; /* arguments that failed: their names are not new errors */
	size_t nunparsed;
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

/* One field of a struct, {mass: float}, {weights: 'float[4]'} (an array, as that many
 * fields weights[0] ...), or with its offset, {value: float, at: 1}: appended to `rec`.
 * `packed` lays fields end to end. Returns false after reporting. */
static bool parse_field(struct loader *ld, struct fy_node *item, struct src_pos at,
			const char *what, bool packed, struct record *rec, bool *explicit_at)
{
	struct src_pos pos = yr_pos(item, at);
	struct fy_node *at_node = fy_node_is_mapping(item) ? yr_get(item, "at") : NULL;
	int keys = fy_node_is_mapping(item) ? fy_node_mapping_item_count(item) : 0;
	if (keys != 1 + (at_node != NULL)) {
		yr_error(&ld->r, pos,
			 "a field of %s is one name and its type, like {mass: float} (and its "
			 "offset in bytes, at:, where the layout is given outright), found %s",
			 what, yr_kind(item));
		return false;
	}
	struct fy_node_pair *pair = NULL;
	void *iter = NULL;
	while ((pair = fy_node_mapping_iterate(item, &iter)) != NULL)
		if (strcmp(fy_node_get_scalar0(fy_node_pair_key(pair)) ?: "", "at") != 0)
			break;
	char *name = yr_scalar(&ld->r, fy_node_pair_key(pair), pos, "a field's name");
	struct fy_node *type_node = fy_node_pair_value(pair);
	char *text = yr_scalar(&ld->r, type_node, pos, "a field's type");
	bool ok = name && text;
	long long count = 1;
	char *bracket = text ? strchr(text, '[') : NULL;
	if (ok && bracket) {
		char *end;
		count = strtoll(bracket + 1, &end, 10);
		if (count < 1 || strcmp(end, "]") != 0) {
			yr_error(&ld->r, yr_pos(type_node, pos),
				 "an array field's type is TYPE[COUNT], a count from 1, found '%s'",
				 text);
			ok = false;
		}
		*bracket = '\0';
	}
	enum elem_type type = ELEM_INT;
	unsigned lanes = 1;
	if (ok && elem_type_parse(text, &type, &lanes) < 0) {
		yr_error(&ld->r, yr_pos(type_node, pos),
			 "unknown type '%s' for field '%s' of %s (known: %s)", text, name, what,
			 elem_type_names());
		ok = false;
	}
	double offset = -1;
	if (ok && at_node &&
	    (!yr_number(&ld->r, at_node, pos, "a field's offset", &offset) || offset < 0 ||
	     offset != (double)(size_t)offset)) {
		yr_error(&ld->r, yr_pos(at_node, pos), "at: is a field's offset in bytes, from 0");
		ok = false;
	}
	*explicit_at |= at_node != NULL;
	struct record_field probe = { .type = type, .lanes = lanes };
	size_t size = ok ? record_field_size(&probe) : 0;
	for (long long i = 0; ok && i < count; i++) {
		char *element = bracket ? xasprintf("%s[%lld]", name, i) : xstrdup(name);
		const struct record_field *last =
			rec->nfields ? &rec->fields[rec->nfields - 1] : NULL;
		size_t next = last ? last->offset + record_field_size(last) : 0;
		if (at_node || packed)
			record_add_at(rec, element, type, lanes,
				      at_node ? (size_t)offset + (size_t)i * size : next);
		else
			record_add(rec, element, type, lanes);
		free(element);
	}
	free(name);
	free(text);
	return ok;
}

/* A struct given as its fields, [{pos: float4}, {mass: float}], laid out as OpenCL C
 * lays it out; or as {fields: [...], packed: true}, end to end; or as {fields: [...],
 * size: S, align: A}, each field with its offset, at:, for any other layout (a nested
 * struct's, flattened). Returns a new record, or NULL after reporting. */
static struct record *parse_record(struct loader *ld, struct fy_node *node, struct src_pos at,
				   const char *what)
{
	static const char *const keys[] = { "fields", "packed", "size", "align", NULL };
	struct fy_node *fields = node;
	bool packed = false, explicit_at = false;
	if (fy_node_is_mapping(node)) {
		yr_reject_unknown_keys(&ld->r, node, "a struct", keys);
		fields = yr_get(node, "fields");
		struct fy_node *v = yr_get(node, "packed");
		if (v)
			yr_bool(&ld->r, v, at, "packed", &packed);
		if (fields == NULL || !fy_node_is_sequence(fields)) {
			yr_error(&ld->r, yr_pos(node, at),
				 "%s: a struct's fields: is a list of fields", what);
			return NULL;
		}
	}
	struct record *rec = xcalloc(1, sizeof *rec);
	void *iter = NULL;
	struct fy_node *item;
	bool ok = fy_node_sequence_item_count(fields) > 0;
	if (!ok)
		yr_error(&ld->r, yr_pos(fields, at), "%s: a struct needs at least one field", what);
	while ((item = fy_node_sequence_iterate(fields, &iter)) != NULL)
		ok &= parse_field(ld, item, at, what, packed, rec, &explicit_at);
	double size = 0, align = 0;
	if (ok && explicit_at) {
		struct fy_node *s = yr_get(node, "size"),
			       *a = fy_node_is_mapping(node) ? yr_get(node, "align") : NULL;
		if (!fy_node_is_mapping(node) || s == NULL || a == NULL) {
			yr_error(
				&ld->r, yr_pos(node, at),
				"%s: a struct whose fields give their offsets (at:) gives its size: and "
				"align: too, as {fields: [...], size: 36, align: 4}",
				what);
			ok = false;
		} else if (yr_number(&ld->r, s, at, "size", &size) &&
			   yr_number(&ld->r, a, at, "align", &align)) {
			record_close(rec, (size_t)size, (size_t)align);
		}
	} else if (ok && packed) {
		const struct record_field *last = &rec->fields[rec->nfields - 1];
		record_close(rec, last->offset + record_field_size(last), 1);
	}
	for (size_t i = 0; ok && rec->explicit_layout && i < rec->nfields; i++)
		if (rec->fields[i].offset + record_field_size(&rec->fields[i]) > rec->size) {
			yr_error(&ld->r, yr_pos(node, at),
				 "%s: field '%s' ends at byte %zu, past the struct's size, %zu",
				 what, rec->fields[i].name,
				 rec->fields[i].offset + record_field_size(&rec->fields[i]),
				 rec->size);
			ok = false;
		}
	if (!ok) {
		record_free(rec);
		return NULL;
	}
	return rec;
}

/* An element type by name ("float4"), or, where `record` is not NULL, a struct given as
 * its list of fields. */
static bool parse_type(struct loader *ld, struct fy_node *node, struct src_pos at, const char *what,
		       enum elem_type *out, unsigned *lanes, struct record **record)
{
	if (record && node && (fy_node_is_sequence(node) || fy_node_is_mapping(node))) {
		*record = parse_record(ld, node, at, what);
		*out = ELEM_UCHAR;
		*lanes = 1;
		return *record != NULL;
	}
	char *text = yr_scalar(&ld->r, node, at, what);
	if (text == NULL)
		return false;
	bool ok = elem_type_parse(text, out, lanes) == 0;
	if (!ok)
		yr_error(&ld->r, yr_pos(node, at), "unknown element type '%s' for %s (known: %s)",
			 text, what, elem_type_names());
	free(text);
	return ok;
}

/* A seed: a whole number from 0 to 2^53, the range a YAML number holds exactly. */
static bool parse_seed(struct loader *ld, struct fy_node *node, struct src_pos at, uint64_t *out)
{
	double seed;
	if (!yr_number(&ld->r, node, at, "seed", &seed))
		return false;
	if (seed < 0 || seed != floor(seed) || seed > 9007199254740992.0) {
		yr_error(&ld->r, yr_pos(node, at),
			 "seed must be a whole number from 0 to 2^53, found %g", seed);
		return false;
	}
	*out = (uint64_t)seed;
	return true;
}

/* The path of `file`, which the case names at `pos` as its `what` ("kernel file"), found
 * beside the case or in a folder above it; NULL after reporting why. A catalogue's case
 * may name only a file inside that catalogue: one outside it (/etc/shadow, ../../x, a link
 * that leads out) would have its lines quoted in diagnostics, and in students' reports
 * when an assignment names the case. */
static char *find_case_file(struct loader *ld, const char *file, struct src_pos pos,
			    const char *what)
{
	char *root = catalogue_root(ld->r.path);
	char *path = NULL;
	if (root && climbs_out(file)) {
		yr_error(&ld->r, pos,
			 "%s '%s' climbs out of the catalogue at %s: a catalogue's case names a "
			 "file inside it, such as kernels/topic/name.cl",
			 what, file, root);
	} else {
		path = find_upwards(ld->r.path, file);
		if (path == NULL) {
			yr_error(&ld->r, pos,
				 "%s '%s' not found beside the case file or in any folder above it",
				 what, file);
		} else if (root && !path_within(path, root)) {
			yr_error(&ld->r, pos,
				 "%s '%s' is found at %s, outside the catalogue at %s: a "
				 "catalogue's case names a file inside it",
				 what, file, path, root);
			free(path);
			path = NULL;
		}
	}
	free(root);
	return path;
}

/* Where a case's -I folders are looked for: its loader, and the options' place. */
struct include_lookup {
	struct loader *ld;
	struct src_pos pos;
};

static char *found_include_folder(const char *dir, void *ctx)
{
	struct include_lookup *at = ctx;
	if (dir[0] == '/')
		return xstrdup(dir);
	char *found = find_case_file(at->ld, dir, at->pos, "the include folder of -I");
	return found ? found : xstrdup(dir);
}

/* A case's -I DIR (or -IDIR) that is relative names a folder beside the case or above it,
 * as its kernel's file does, so that a case and its headers move together: each becomes
 * the folder's path for the build. One found nowhere is an error at the options. */
static void resolve_include_dirs(struct loader *ld, char **options, struct src_pos pos)
{
	struct include_lookup at = { ld, pos };
	char *resolved = directives_map_include_folders(*options, found_include_folder, &at);
	free(*options);
	*options = resolved;
}

/* Reads the data file `node` names for buffer `buf` (a .npy, or a raw .bin of the
 * buffer's own type) into *data. Returns the file's name as the case gives it (NULL when
 * it gives none), after reporting anything wrong at the node. */
static char *read_data(struct loader *ld, struct fy_node *node, struct src_pos at,
		       const struct buffer_decl *buf, struct data_file *data)
{
	struct src_pos pos = yr_pos(node, at);
	char *name = yr_scalar(&ld->r, node, at, "the data file (file: in.npy)");
	if (name == NULL)
		return NULL;
	/* A name of neither kind is said to be so before it is looked for. */
	bool known = has_suffix(name, ".npy") || has_suffix(name, ".bin");
	char *path = known ? find_case_file(ld, name, pos, "data file") : xstrdup(name);
	if (path == NULL)
		return name;
	char *why = NULL;
	if (buf->record && !has_suffix(name, ".bin")) {
		yr_error(&ld->r, pos,
			 "data file '%s' for buffer '%s' of structs: give the structs' bytes as "
			 "the device lays them out, in a .bin file",
			 name, buf->name);
	} else if (buf->record) {
		/* The structs' own bytes, padding and all: a file of bytes. */
		if (data_file_read(path, ELEM_UCHAR, data, &why) < 0) {
			yr_error(&ld->r, pos, "data file '%s' for buffer '%s': %s", name,
				 buf->name, why);
			free(why);
		} else if (data->count % buf->record->size != 0) {
			yr_error(&ld->r, pos,
				 "data file '%s' holds %zu bytes, which is no whole number of "
				 "%zu-byte structs for buffer '%s'",
				 name, data->count, buf->record->size, buf->name);
		}
	} else if (data_file_read(path, buf->type, data, &why) < 0) {
		yr_error(&ld->r, pos, "data file '%s' for buffer '%s': %s", name, buf->name, why);
		free(why);
	} else if (data->count % buf->lanes != 0) {
		char type[ELEM_NAME_MAX];
		yr_error(&ld->r, pos,
			 "data file '%s' holds %zu values (shape %s), which is no whole number of "
			 "%s elements for buffer '%s'",
			 name, data->count, data->shape,
			 elem_type_text(buf->type, buf->lanes, type), buf->name);
	} else if (buf->lanes == 3) {
		data_file_pad_lanes(data, 3, 4);
	}
	free(path);
	return name;
}

/* access: read-only, write-only or read-write. */
static void parse_access(struct loader *ld, struct fy_node *node, struct src_pos at,
			 enum buffer_access *access)
{
	static const char *const words[] = { "read-write", "read-only", "write-only" };
	char *text = yr_scalar(&ld->r, node, at, "access (read-only, write-only or read-write)");
	if (text == NULL)
		return;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strcmp(text, words[i]) == 0) {
			*access = (enum buffer_access)i;
			free(text);
			return;
		}
	yr_error(&ld->r, yr_pos(node, at),
		 "unknown access '%s' (known: read-only, write-only, read-write)", text);
	free(text);
}

static void parse_init(struct loader *ld, struct fy_node *node, struct src_pos at,
		       struct buffer_decl *buf)
{
	static const char *const keys[] = { "fill", "iota", "random", "random_int",
					    "seed", "file", NULL };
	struct init_spec *init = &buf->init;
	init->pos = yr_pos(node, at);
	init->seed = gen_buffer_seed(ld->tc->seed, buf->name);
	if (fy_node_is_scalar(node) && strcmp(fy_node_get_scalar0(node), "none") == 0) {
		init->kind = INIT_NONE;
		return;
	}
	if (!yr_require_mapping(&ld->r, node, at, "init (a mapping, or none)"))
		return;
	yr_reject_unknown_keys(&ld->r, node, "an init", keys);

	int kinds = 0;
	struct fy_node *v;
	if ((v = yr_get(node, "fill")) != NULL) {
		kinds++;
		init->kind = INIT_FILL;
		yr_number(&ld->r, v, init->pos, "the fill value", &init->lo);
	}
	if ((v = yr_get(node, "iota")) != NULL) {
		kinds++;
		init->kind = INIT_IOTA;
		yr_number(&ld->r, v, init->pos, "the iota start", &init->lo);
	}
	const char *random_key = yr_get(node, "random") ? "random" : "random_int";
	if ((v = yr_get(node, random_key)) != NULL) {
		kinds += yr_get(node, "random") && yr_get(node, "random_int") ? 2 : 1;
		init->kind = strcmp(random_key, "random") == 0 ? INIT_RANDOM : INIT_RANDOM_INT;
		if (!fy_node_is_sequence(v) || fy_node_sequence_item_count(v) != 2) {
			yr_error(&ld->r, yr_pos(v, init->pos),
				 "%s takes a range [low, high], found %s", random_key, yr_kind(v));
		} else if (yr_number(&ld->r, fy_node_sequence_get_by_index(v, 0), init->pos,
				     "the low end", &init->lo) &&
			   yr_number(&ld->r, fy_node_sequence_get_by_index(v, 1), init->pos,
				     "the high end", &init->hi) &&
			   !(init->lo < init->hi)) {
			yr_error(&ld->r, yr_pos(v, init->pos),
				 "%s range [%g, %g] is empty: the low end "
				 "must be below the high end",
				 random_key, init->lo, init->hi);
		}
	}
	if ((v = yr_get(node, "file")) != NULL) {
		kinds++;
		init->kind = INIT_FILE;
		init->file = read_data(ld, v, init->pos, buf, &init->data);
	}
	if (kinds != 1)
		yr_error(&ld->r, init->pos,
			 "an init needs exactly one of fill, iota, random, random_int or file");

	bool integral =
		(!buf->record && !elem_is_float(buf->type)) || init->kind == INIT_RANDOM_INT;
	if (kinds == 1 && integral && init->kind != INIT_RANDOM && init->kind != INIT_FILE &&
	    (init->lo != floor(init->lo) || init->hi != floor(init->hi)))
		yr_error(&ld->r, init->pos, "%s buffer '%s' needs whole numbers in its init",
			 elem_type_name(buf->type), buf->name);

	if ((v = yr_get(node, "seed")) != NULL)
		parse_seed(ld, v, init->pos, &init->seed);

	/* A value past an integer type would wrap into another one the case never meant; a
	 * struct's init fills every field, so it must fit each. */
	bool ranged = init->kind == INIT_FILL || init->kind == INIT_IOTA ||
		      init->kind == INIT_RANDOM || init->kind == INIT_RANDOM_INT;
	double hi = init->kind == INIT_FILL || init->kind == INIT_IOTA ? init->lo : init->hi;
	size_t fields = buf->record ? buf->record->nfields : 1;
	for (size_t f = 0; kinds == 1 && ranged && f < fields; f++) {
		enum elem_type type = buf->record ? buf->record->fields[f].type : buf->type;
		unsigned lanes = buf->record ? buf->record->fields[f].lanes : buf->lanes;
		double lowest = (double)(int64_t)elem_int_min(type);
		double highest = (double)elem_int_max(type);
		if (elem_is_float(type) || (init->lo >= lowest && hi <= highest))
			continue;
		char name[ELEM_NAME_MAX];
		yr_error(&ld->r, init->pos,
			 "%s %s '%s' holds values from %.0f to %.0f, but its init reaches %g",
			 elem_type_text(type, lanes, name),
			 buf->record ? "field of buffer" : "buffer", buf->name, lowest, highest,
			 init->lo < lowest ? init->lo : hi);
		break;
	}
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

/* Whether `text` is a number written with a fraction or an exponent (0.5, -1e-3), which
 * the size expressions, whole numbers all, do not take. */
static bool fractional_literal(const char *text, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(text, &end);
	return end != text && *end == '\0' && errno == 0 && isfinite(*v) &&
	       strpbrk(text, ".eE") != NULL && strpbrk(text, "xX") == NULL;
}

/* One lane's term: a size expression, or a fractional number where `type` is a float. */
static void parse_lane_term(struct loader *ld, struct fy_node *node, struct src_pos at,
			    const char *what, unsigned names, enum elem_type type,
			    struct lane_term *term)
{
	const char *text = node && fy_node_is_scalar(node) ? fy_node_get_scalar0(node) : NULL;
	if (text && fractional_literal(text, &term->number)) {
		if (!elem_is_float(type)) {
			char name[32];
			yr_error(&ld->r, yr_pos(node, at),
				 "%s '%s' is no whole number, which a scalar of %s cannot take",
				 what, text, elem_type_text(type, 1, name));
		}
		return;
	}
	yr_pexpr(&ld->r, node, at, what, names, &term->expr);
}

/* A scalar's value: one term every lane takes, or a list of one a lane for a vector. */
static void parse_scalar_value(struct loader *ld, struct fy_node *node, struct src_pos at,
			       const char *what, unsigned names, enum elem_type type,
			       unsigned lanes, struct scalar_value *out)
{
	if (node == NULL || !fy_node_is_sequence(node)) {
		out->count = 1;
		out->terms = xcalloc(1, sizeof *out->terms);
		if (node == NULL)
			yr_error(&ld->r, at, "missing %s", what);
		else
			parse_lane_term(ld, node, at, what, names, type, &out->terms[0]);
		return;
	}
	int n = fy_node_sequence_item_count(node);
	char name[ELEM_NAME_MAX];
	elem_type_text(type, lanes, name);
	if (lanes < 2) {
		yr_error(&ld->r, yr_pos(node, at), "%s is a list, but a %s takes one value", what,
			 name);
		return;
	}
	if (n != (int)lanes) {
		yr_error(&ld->r, yr_pos(node, at),
			 "%s is a list of %d values, but a %s takes one a lane, %u", what, n, name,
			 lanes);
		return;
	}
	out->count = (unsigned)n;
	out->terms = xcalloc((size_t)n, sizeof *out->terms);
	for (int i = 0; i < n; i++)
		parse_lane_term(ld, fy_node_sequence_get_by_index(node, i), yr_pos(node, at),
				"a lane's value", names, type, &out->terms[i]);
}

/* A struct scalar's value: one value a field, in order, each a term every lane of the
 * field takes or a list of one a lane. */
static void parse_field_values(struct loader *ld, struct fy_node *node, struct arg *arg,
			       unsigned names)
{
	struct fy_node *v = yr_get(node, "value");
	size_t fields = arg->record->nfields;
	if (v == NULL || !fy_node_is_sequence(v) ||
	    (size_t)fy_node_sequence_item_count(v) != fields) {
		char *text = record_text(arg->record);
		char *found = v && fy_node_is_sequence(v)
				      ? xasprintf("%d", fy_node_sequence_item_count(v))
				      : xstrdup(yr_kind(v));
		yr_error(&ld->r, yr_pos(v, arg->pos),
			 "a struct scalar's value is a list of one value a field: %s needs %zu, "
			 "found %s",
			 text, fields, found);
		free(found);
		free(text);
		return;
	}
	arg->field_values = xcalloc(fields, sizeof *arg->field_values);
	for (size_t f = 0; f < fields; f++) {
		const struct record_field *field = &arg->record->fields[f];
		parse_scalar_value(ld, fy_node_sequence_get_by_index(v, (int)f),
				   yr_pos(v, arg->pos), "a field's value", names, field->type,
				   field->lanes, &arg->field_values[f]);
	}
}

static void parse_arg(struct loader *ld, struct fy_node *node, struct src_pos at, unsigned names,
		      struct arg *arg)
{
	static const char *const buffer_keys[] = { "name",   "buffer", "count", "init",
						   "output", "access", NULL };
	static const char *const null_keys[] = { "name", "buffer", NULL };
	static const char *const constant_keys[] = { "name", "constant", "count", "init", NULL };
	static const char *const use_keys[] = { "use", NULL };
	static const char *const local_keys[] = { "name", "local", "count", NULL };
	static const char *const scalar_keys[] = { "name", "scalar", "value", NULL };
	static const char *const any_keys[] = { "name",	  "buffer", "constant", "use",
						"local",  "scalar", "count",	"init",
						"output", "value",  NULL };

	arg->pos = yr_pos(node, at);
	if (!yr_require_mapping(&ld->r, node, at, "an argument"))
		return;
	int kinds = !!yr_get(node, "buffer") + !!yr_get(node, "constant") + !!yr_get(node, "use") +
		    !!yr_get(node, "local") + !!yr_get(node, "scalar");
	if (kinds != 1) {
		/* A misspelt kind key is reported as such; "needs one of" would only repeat it. */
		if (yr_reject_unknown_keys(&ld->r, node, "an argument", any_keys) == 0 || kinds > 1)
			yr_error(&ld->r, arg->pos,
				 "an argument needs exactly one of buffer, constant, use, "
				 "local or scalar, found %d",
				 kinds);
		ld->unparsed = xreallocarray(ld->unparsed, ld->nunparsed + 1, sizeof *ld->unparsed);
		ld->unparsed[ld->nunparsed++] = node;
		return;
	}

	struct test_case *tc = ld->tc;
	struct fy_node *v;
	bool constant = yr_get(node, "constant") != NULL;
	if ((v = yr_get(node, constant ? "constant" : "buffer")) != NULL) {
		yr_reject_unknown_keys(&ld->r, node,
				       constant ? "a constant argument" : "a buffer argument",
				       constant ? constant_keys : buffer_keys);
		struct buffer_decl buf = { .pos = arg->pos, .constant = constant };
		buf.name =
			yr_scalar_at(&ld->r, node, "name", arg->pos, "a buffer name (name: ...)");
		if (buf.name == NULL)
			return;
		size_t existing;
		if (find_buffer(tc, buf.name, &existing)) {
			yr_error(&ld->r, yr_pos(yr_get(node, "name"), arg->pos),
				 "buffer '%s' is declared twice; a later "
				 "step uses it with {use: %s}",
				 buf.name, buf.name);
			free(buf.name);
			return;
		}
		buf.null_pointer = !constant && fy_node_is_scalar(v) &&
				   (strcmp(fy_node_get_scalar0(v), "null") == 0 ||
				    strcmp(fy_node_get_scalar0(v), "~") == 0);
		if (buf.null_pointer) {
			/* A NULL pointer has no elements and no type for the kernel to agree
			 * with. */
			yr_reject_unknown_keys(&ld->r, node, "a null buffer argument", null_keys);
			buf.type = ELEM_UCHAR;
			buf.lanes = 1;
			struct expr_error err;
			expr_parse("0", &buf.count.expr, &err);
			buf.count.pos = arg->pos;
			buf.init = (struct init_spec){ .kind = INIT_NONE, .pos = arg->pos };
		} else {
			parse_type(ld, v, arg->pos, "a buffer", &buf.type, &buf.lanes, &buf.record);
			yr_pexpr_at(&ld->r, node, "count", arg->pos, "the buffer's count", names,
				    &buf.count);
			if ((v = yr_get(node, "init")) != NULL)
				parse_init(ld, v, arg->pos, &buf);
			else
				buf.init =
					(struct init_spec){ .kind = INIT_POISON, .pos = arg->pos };
			if ((v = yr_get(node, "output")) != NULL)
				yr_bool(&ld->r, v, arg->pos, "output", &buf.output);
			if ((v = yr_get(node, "access")) != NULL)
				parse_access(ld, v, arg->pos, &buf.access);
		}
		tc->buffers = xreallocarray(tc->buffers, tc->nbuffers + 1, sizeof *tc->buffers);
		tc->buffers[tc->nbuffers] = buf;
		arg->kind = ARG_BUFFER;
		arg->buffer = tc->nbuffers++;
	} else if ((v = yr_get(node, "use")) != NULL) {
		yr_reject_unknown_keys(&ld->r, node, "a use argument", use_keys);
		arg->kind = ARG_BUFFER;
		char *name =
			yr_scalar(&ld->r, v, arg->pos, "the name of a buffer declared earlier");
		if (name && !find_buffer(tc, name, &arg->buffer) && !unparsed_name(ld, name))
			yr_error(&ld->r, yr_pos(v, arg->pos),
				 "no buffer named '%s' is declared before this argument", name);
		free(name);
	} else if ((v = yr_get(node, "local")) != NULL) {
		yr_reject_unknown_keys(&ld->r, node, "a local argument", local_keys);
		arg->kind = ARG_LOCAL;
		parse_type(ld, v, arg->pos, "a local buffer", &arg->type, &arg->lanes,
			   &arg->record);
		yr_pexpr_at(&ld->r, node, "count", arg->pos, "the local buffer's count", names,
			    &arg->count);
	} else {
		yr_reject_unknown_keys(&ld->r, node, "a scalar argument", scalar_keys);
		v = yr_get(node, "scalar");
		arg->kind = ARG_SCALAR;
		parse_type(ld, v, arg->pos, "a scalar", &arg->type, &arg->lanes, &arg->record);
		if (arg->record)
			parse_field_values(ld, node, arg, names);
		else if (!yr_misspelt(&ld->r, node, "value"))
			parse_scalar_value(
				ld, yr_get(node, "value"), yr_key_pos(node, "value", arg->pos),
				"the scalar's value", names, arg->type, arg->lanes, &arg->value);
	}
}

/* The kernel: {file, name} of a step (or of a reference kernel) into step. */
static void parse_kernel_key(struct loader *ld, struct fy_node *node, struct src_pos pos,
			     struct step *step)
{
	static const char *const kernel_keys[] = { "file", "name", NULL };
	struct fy_node *kernel = yr_get(node, "kernel");
	struct src_pos kpos = yr_key_pos(node, "kernel", pos);
	if (kernel == NULL) {
		if (!yr_misspelt(&ld->r, node, "kernel"))
			yr_error(&ld->r, pos,
				 "missing key 'kernel': name the kernel as "
				 "{file: kernels/..., name: ...}");
	} else if (yr_require_mapping(&ld->r, kernel, kpos, "kernel")) {
		yr_reject_unknown_keys(&ld->r, kernel, "kernel", kernel_keys);
		step->file_pos = yr_pos(yr_get(kernel, "file"), kpos);
		step->name_pos = yr_pos(yr_get(kernel, "name"), kpos);
		step->kernel_file =
			yr_scalar_at(&ld->r, kernel, "file", kpos, "the kernel's file (file: ...)");
		step->kernel_name =
			yr_scalar_at(&ld->r, kernel, "name", kpos, "the kernel's name (name: ...)");
		if (step->kernel_file)
			step->kernel_path = find_case_file(ld, step->kernel_file, step->file_pos,
							   "kernel file");
	}
}

static void parse_step(struct loader *ld, struct fy_node *node, struct src_pos at, bool top,
		       struct step *step)
{
	static const char *const step_keys[] = { "kernel", "global", "local", "offset",
						 "repeat", "args",   NULL };

	if (!top) {
		if (!yr_require_mapping(&ld->r, node, at, "a step"))
			return;
		yr_reject_unknown_keys(&ld->r, node, "a step", step_keys);
	}
	struct src_pos pos = yr_pos(node, at);
	unsigned names = EXPR_SHAPE | EXPR_CU;

	struct fy_node *v = yr_get(node, "repeat");
	if (!top && v != NULL && yr_pexpr(&ld->r, v, pos, "repeat", names, &step->repeat))
		names |= EXPR_I;

	parse_kernel_key(ld, node, pos, step);

	v = yr_get(node, "global");
	if (v == NULL) {
		if (!yr_misspelt(&ld->r, node, "global"))
			yr_error(&ld->r, pos,
				 "missing key 'global': the global work size, e.g. global: N");
	} else {
		step->global_pos = yr_pos(v, pos);
		step->global_dims = yr_pexpr_dims(&ld->r, v, pos, "global", names, step->global);
	}
	if (!top && (v = yr_get(node, "local")) != NULL) {
		step->local_pos = yr_pos(v, pos);
		step->local_dims =
			yr_pexpr_dims(&ld->r, v, pos, "the step's local size", names, step->local);
	}
	if ((v = yr_get(node, "offset")) != NULL) {
		step->offset_pos = yr_pos(v, pos);
		step->offset_dims = yr_pexpr_dims(&ld->r, v, pos, "offset", names, step->offset);
	}

	v = yr_get(node, "args");
	step->args_pos = yr_key_pos(node, "args", pos);
	if (v == NULL && yr_misspelt(&ld->r, node, "args"))
		return;
	if (v == NULL || !fy_node_is_sequence(v)) {
		yr_error(&ld->r, yr_pos(v, pos),
			 "%s: args must be a list of the kernel's arguments in order, found %s",
			 v ? "wrong type" : "missing key 'args'", yr_kind(v));
		return;
	}
	step->args_pos = yr_pos(v, step->args_pos);
	step->nargs = fy_node_sequence_item_count(v);
	step->args = xcalloc(step->nargs, sizeof *step->args);
	void *iter = NULL;
	struct fy_node *item;
	for (size_t i = 0; (item = fy_node_sequence_iterate(v, &iter)) != NULL; i++)
		parse_arg(ld, item, step->args_pos, names, &step->args[i]);
}

/* Whether buffer `in` can feed output `out`'s reference: the same scalar type (a
 * histogram counts any integers into int or uint), and as many lanes, each computed on
 * its own, or a scalar output that takes every lane as a term. */
static void check_input_type(struct loader *ld, const struct check *check,
			     const struct buffer_decl *in, const struct buffer_decl *out,
			     struct src_pos pos)
{
	if (in->record || out->record)
		return; /* structs meet no computed reference: parse_check says so */
	char in_type[ELEM_NAME_MAX], out_type[ELEM_NAME_MAX];
	elem_type_text(in->type, in->lanes, in_type);
	elem_type_text(out->type, out->lanes, out_type);
	if (check->ref->kind == REF_HISTOGRAM) {
		if (elem_is_float(in->type) || in->lanes != 1 ||
		    (out->type != ELEM_INT && out->type != ELEM_UINT) || out->lanes != 1)
			yr_error(&ld->r, pos,
				 "histogram counts integers into int or uint bins, but '%s' holds "
				 "%s and '%s' holds %s",
				 in->name, in_type, out->name, out_type);
		return;
	}
	if (in->type != out->type || (in->lanes != out->lanes && out->lanes != 1))
		yr_error(&ld->r, pos,
			 "'%s' holds %s but output '%s' holds %s: a reference keeps the type, "
			 "lane by lane (a scalar output of vectors takes every lane)",
			 in->name, in_type, out->name, out_type);
	else if (in->lanes != out->lanes && check->ref->shifted)
		yr_error(&ld->r, pos, "%s moves elements, so '%s' and '%s' need the same type",
			 check->ref->name, in->name, out->name);
}

static enum tolerance parse_tolerance(struct loader *ld, struct fy_node *node, struct src_pos at,
				      bool *given)
{
	*given = node != NULL;
	if (node == NULL)
		return TOL_EXACT;
	char *text = yr_scalar(&ld->r, node, at, "tolerance");
	enum tolerance t = TOL_EXACT;
	if (text == NULL)
		return t;
	if (strcmp(text, "reduction") == 0)
		t = TOL_REDUCTION;
	else if (strcmp(text, "unordered") == 0)
		t = TOL_UNORDERED;
	else if (strcmp(text, "exact") != 0)
		yr_error(&ld->r, yr_pos(node, at),
			 "unknown tolerance '%s' (known: exact, reduction, unordered)", text);
	free(text);
	return t;
}

/* reference: {kernel: {file, name}, global: G}: a plainly written kernel, launched with
 * the arguments of the case's last step (the same buffers with the same inputs) at
 * global size G (default 1: serial) in work-groups of one, on a CPU device; what it
 * leaves in the checked buffer is the expected output, compared exactly. */
static void parse_kernel_reference(struct loader *ld, struct fy_node *ref, struct check *check)
{
	static const char *const keys[] = { "kernel", "global", NULL };
	yr_reject_unknown_keys(&ld->r, ref, "a reference kernel", keys);
	check->ref = ref_kernel();
	struct step *st = xcalloc(1, sizeof *st);
	check->ref_step = st;
	struct src_pos pos = check->reference_pos;
	parse_kernel_key(ld, ref, pos, st);
	struct fy_node *v = yr_get(ref, "global");
	st->global_pos = yr_pos(v, pos);
	if (v != NULL) {
		st->global_dims = yr_pexpr_dims(&ld->r, v, pos, "the reference's global",
						EXPR_SHAPE, st->global);
	} else {
		struct expr_error err;
		expr_parse("1", &st->global[0].expr, &err);
		st->global[0].pos = pos;
		st->global_dims = 1;
	}
	/* Work-groups of one item: a reference needs no local memory shared. */
	st->local_dims = st->global_dims;
	st->local_pos = st->global_pos;
	for (unsigned d = 0; d < st->local_dims; d++) {
		struct expr_error err;
		expr_parse("1", &st->local[d].expr, &err);
		st->local[d].pos = st->global_pos;
	}
	const struct test_case *tc = ld->tc;
	if (tc->nsteps == 0)
		return;
	const struct step *last = &tc->steps[tc->nsteps - 1];
	st->args_pos = last->args_pos;
	st->nargs = last->nargs;
	st->args = xcalloc(st->nargs ? st->nargs : 1, sizeof *st->args);
	for (size_t a = 0; a < last->nargs; a++) {
		const struct arg *from = &last->args[a];
		struct arg *to = &st->args[a];
		*to = *from;
		to->count = pexpr_copy(&from->count);
		to->value = scalar_value_copy(&from->value);
		to->record = from->record ? record_copy(from->record) : NULL;
		to->field_values = NULL;
		if (from->field_values) {
			to->field_values = xcalloc(from->record->nfields, sizeof *to->field_values);
			for (size_t f = 0; f < from->record->nfields; f++)
				to->field_values[f] = scalar_value_copy(&from->field_values[f]);
		}
	}
}

/* reference: {values: [1, 2, 3]}: the expected values written out, a scalar each (a
 * vector's lanes in turn), into *data of the buffer's type. Returns the text the reports
 * name them by. */
static char *read_values(struct loader *ld, struct fy_node *node, struct src_pos at,
			 const struct buffer_decl *buf, struct data_file *data)
{
	struct src_pos pos = yr_pos(node, at);
	if (!fy_node_is_sequence(node) || fy_node_sequence_item_count(node) == 0) {
		yr_error(&ld->r, pos,
			 "values: is a list of the expected values, [1, 2, 3], found %s",
			 yr_kind(node));
		return NULL;
	}
	size_t n = (size_t)fy_node_sequence_item_count(node);
	if (buf->lanes == 0)
		return NULL; /* the buffer's type was no type: said at the buffer */
	if (n % buf->lanes != 0) {
		char type[ELEM_NAME_MAX];
		yr_error(&ld->r, pos, "values: holds %zu values, no whole number of %s elements", n,
			 elem_type_text(buf->type, buf->lanes, type));
		return NULL;
	}
	*data = (struct data_file){ .type = buf->type, .count = n, .shape = xstrdup("values") };
	data->data = xcalloc(n, elem_size(buf->type));
	for (size_t i = 0; i < n; i++) {
		double v = 0;
		yr_number(&ld->r, fy_node_sequence_get_by_index(node, (int)i), pos,
			  "an expected value", &v);
		elem_set(buf->type, data->data, i, v);
	}
	if (buf->lanes == 3)
		data_file_pad_lanes(data, 3, 4);
	return xstrdup("the values: list");
}

/* reference: {file: out.npy} or {values: [1, 2, 3]}: the expected values of `out` as a
 * data file or the case itself holds them, compared exactly; the check's other keys
 * (count) are read as for any reference. */
static void read_expected_values(struct loader *ld, struct fy_node *ref, struct buffer_decl *out,
				 struct check *check);

static void parse_file_reference(struct loader *ld, struct fy_node *ref, struct buffer_decl *out,
				 struct check *check)
{
	static const char *const keys[] = { "file", "values", "at", NULL };
	yr_reject_unknown_keys(&ld->r, ref, "a reference", keys);
	check->ref = ref_file();
	read_expected_values(ld, ref, out, check);
}

/* recorded: {file: out.after.npy, at: [SIZE, LOCAL]} beside reference: targets: what the
 * application's own device left at its own launch, which names the odd one out where the
 * targets disagree. */
static void parse_recorded(struct loader *ld, struct fy_node *rec, struct buffer_decl *out,
			   struct check *check)
{
	static const char *const keys[] = { "file", "values", "at", NULL };
	struct src_pos pos = yr_pos(rec, check->pos);
	if (!yr_require_mapping(&ld->r, rec, pos, "recorded: {file: ..., at: [SIZE, LOCAL]}"))
		return;
	yr_reject_unknown_keys(&ld->r, rec, "recorded", keys);
	if ((yr_get(rec, "file") == NULL && yr_get(rec, "values") == NULL) ||
	    yr_get(rec, "at") == NULL) {
		yr_error(&ld->r, pos,
			 "recorded: names the application's output and the launch it is of: "
			 "{file: out.after.npy, at: [SIZE, LOCAL]}");
		return;
	}
	read_expected_values(ld, rec, out, check);
	check->recorded = check->has_at && check->expected_file != NULL;
}

/* The expected values of file: or values:, and the launch at: they are of. */
static void read_expected_values(struct loader *ld, struct fy_node *ref, struct buffer_decl *out,
				 struct check *check)
{
	struct fy_node *at = yr_get(ref, "at");
	if (at) {
		/* at: [SIZE, LOCAL], the launch whose output the values are; a captured
		 * launch's, whose case also runs smaller for the simulator and other shapes
		 * for hunt, where its values say nothing. */
		struct shape *shapes = NULL;
		size_t n = 0;
		struct src_pos at_pos = yr_key_pos(ref, "at", check->reference_pos);
		yr_shape_list(&ld->r, at, at_pos, "at", &shapes, &n);
		if (n == 2 && shapes[0].dims == shapes[1].dims) {
			check->has_at = true;
			check->at_n = shapes[0];
			check->at_l = shapes[1];
		} else if (shapes) {
			yr_error(&ld->r, at_pos,
				 "at: is the one launch the values are of, [SIZE, LOCAL], such as "
				 "[1024, 64] or [[64, 32], [16, 8]]");
		}
		free(shapes);
	}
	struct fy_node *file = yr_get(ref, "file"), *values = yr_get(ref, "values");
	if ((file == NULL) == (values == NULL)) {
		if (!yr_misspelt(&ld->r, ref, "file") && !yr_misspelt(&ld->r, ref, "values"))
			yr_error(&ld->r, check->reference_pos,
				 "a reference mapping holds the expected values: reference: {file: "
				 "out.npy} or reference: {values: [1, 2, 3]}, one of them");
		return;
	}
	check->expected_file =
		file ? read_data(ld, file, check->reference_pos, out, &check->expected)
		     : read_values(ld, values, check->reference_pos, out, &check->expected);
}

/* of, group and shift say how a computed reference is computed: beside any other kind
 * each is an error, `instead` telling what that reference is. */
static void reject_computed_keys(struct loader *ld, struct fy_node *node, struct src_pos pos,
				 const char *instead)
{
	static const char *const computed_only[] = { "of", "group", "shift" };
	for (size_t k = 0; k < 3; k++)
		if (yr_get(node, computed_only[k]))
			yr_error(&ld->r, yr_key_pos(node, computed_only[k], pos),
				 "%s belongs to a computed reference%s", computed_only[k], instead);
}

static void parse_check(struct loader *ld, struct fy_node *key, struct fy_node *node,
			struct check *check)
{
	static const char *const keys[] = { "reference", "of",	   "tolerance", "group",
					    "shift",	 "count",  "serial",	"partials",
					    "width",	 "height", "recorded", NULL };
	struct test_case *tc = ld->tc;
	check->buffer = SIZE_MAX;
	check->pos = yr_pos(key, (struct src_pos){ 0 });
	char *name = yr_scalar(&ld->r, key, check->pos, "an output buffer's name");
	if (name == NULL)
		return;
	if (!find_buffer(tc, name, &check->buffer)) {
		check->buffer = SIZE_MAX;
		if (!unparsed_name(ld, name))
			yr_error(&ld->r, check->pos,
				 "check names '%s', but no buffer has that name", name);
		free(name);
		return;
	}
	struct buffer_decl *out = &tc->buffers[check->buffer];
	if (!out->output)
		yr_error(&ld->r, check->pos,
			 "buffer '%s' is checked but not read back: add output: true to it", name);
	free(name);
	if (!yr_require_mapping(&ld->r, node, check->pos, "a check"))
		return;
	yr_reject_unknown_keys(&ld->r, node, "a check", keys);

	struct src_pos pos = check->pos;
	struct fy_node *ref_node = yr_get(node, "reference");
	check->reference_pos = yr_pos(ref_node, pos);
	unsigned names = EXPR_SHAPE | EXPR_CU;
	struct fy_node *v;
	if (ref_node && fy_node_is_mapping(ref_node)) {
		bool kernel = yr_get(ref_node, "kernel") != NULL;
		if (kernel)
			parse_kernel_reference(ld, ref_node, check);
		else
			parse_file_reference(ld, ref_node, out, check);
		reject_computed_keys(ld, node, pos,
				     kernel ? ", not to a reference kernel, which takes the case's "
					      "own arguments"
					    : ", not to a data file's values");
		goto compared;
	}
	char *ref = yr_scalar_at(&ld->r, node, "reference", pos, "a reference (reference: ...)");
	if (ref) {
		check->ref = ref_lookup(ref);
		if (check->ref == NULL)
			yr_error(&ld->r, yr_pos(yr_get(node, "reference"), pos),
				 "unknown reference '%s' (known: %s)", ref, ref_names());
		free(ref);
	}
	if (check->ref == NULL)
		return;
	struct fy_node *recorded = yr_get(node, "recorded");
	if (recorded && check->ref->kind != REF_TARGETS)
		yr_error(&ld->r, yr_key_pos(node, "recorded", pos),
			 "recorded: belongs to reference: targets, where it names the odd one out "
			 "among the targets and the application");
	if (check->ref->kind == REF_TARGETS) {
		reject_computed_keys(ld, node, pos,
				     "; reference: targets compares the targets' outputs with each "
				     "other");
		if (recorded && out->record == NULL)
			parse_recorded(ld, recorded, out, check);
		goto compared;
	}

	struct fy_node *of = yr_get(node, "of");
	struct src_pos of_pos = yr_pos(of, pos);
	size_t nof = of && fy_node_is_sequence(of) ? (size_t)fy_node_sequence_item_count(of) : 1;
	if (of == NULL && yr_misspelt(&ld->r, node, "of"))
		return;
	if (of == NULL || (int)nof != check->ref->inputs) {
		yr_error(&ld->r, of_pos, "reference %s takes %s", check->ref->name,
			 check->ref->inputs == 2 ? "two buffers: of: [a, b]"
						 : "one buffer: of: NAME");
		return;
	}
	for (size_t i = 0; i < nof; i++) {
		struct fy_node *item =
			fy_node_is_sequence(of) ? fy_node_sequence_get_by_index(of, (int)i) : of;
		char *in = yr_scalar(&ld->r, item, of_pos, "a buffer name");
		if (in == NULL)
			continue;
		if (!find_buffer(tc, in, &check->of[i])) {
			if (!unparsed_name(ld, in))
				yr_error(&ld->r, yr_pos(item, of_pos),
					 "no buffer named '%s' to compute %s of", in,
					 check->ref->name);
		} else {
			check_input_type(ld, check, &tc->buffers[check->of[i]], out,
					 yr_pos(item, of_pos));
		}
		free(in);
	}

	if ((v = yr_get(node, "group")) != NULL) {
		if (check->ref->per_group)
			yr_pexpr(&ld->r, v, pos, "group", names, &check->group);
		else
			yr_error(&ld->r, yr_key_pos(node, "group", pos),
				 "group applies to per-group references only, not %s",
				 check->ref->name);
	}
	if ((v = yr_get(node, "shift")) != NULL) {
		if (check->ref->shifted)
			yr_pexpr(&ld->r, v, pos, "shift", names, &check->shift);
		else
			yr_error(&ld->r, yr_key_pos(node, "shift", pos),
				 "shift applies to rotate only, not %s", check->ref->name);
	} else if (check->ref->shifted && !yr_misspelt(&ld->r, node, "shift")) {
		yr_error(&ld->r, pos, "reference %s needs shift: the k of y[i] = x[(i + k) %% n]",
			 check->ref->name);
	}
	const char *matrix_keys[] = { "width", "height" };
	struct pexpr *matrix[] = { &check->width, &check->height };
	for (int i = 0; i < 2; i++) {
		if ((v = yr_get(node, matrix_keys[i])) == NULL)
			continue;
		if (check->ref->matrix)
			yr_pexpr(&ld->r, v, pos, matrix_keys[i], names, matrix[i]);
		else
			yr_error(&ld->r, yr_key_pos(node, matrix_keys[i], pos),
				 "%s applies to matrix references (transpose, matmul, stencil5, "
				 "convolve) only, not %s",
				 matrix_keys[i], check->ref->name);
	}
compared:
	if (out->record && check->ref && !check_compared_later(check))
		yr_error(&ld->r, check->reference_pos,
			 "'%s' holds structs, which no computed reference or data file makes: "
			 "compare it with reference: targets or a reference kernel",
			 out->name);
	if ((v = yr_get(node, "count")) != NULL)
		yr_pexpr(&ld->r, v, pos, "count", names, &check->count);

	bool given;
	struct src_pos tol_pos = yr_key_pos(node, "tolerance", pos);
	check->tolerance_pos = tol_pos;
	check->tolerance = parse_tolerance(ld, yr_get(node, "tolerance"), pos, &given);
	bool rounding = elem_is_float(out->type) && check->ref->sums;
	if (rounding && !given && !yr_misspelt(&ld->r, node, "tolerance"))
		yr_error(&ld->r, pos,
			 "a float %s needs a tolerance: exact (small whole-number inputs), "
			 "reduction (a summation bound from serial and partials) or unordered",
			 check->ref->name);
	if (!rounding && check->tolerance != TOL_EXACT)
		yr_error(&ld->r, tol_pos,
			 "%s results of %s are compared exactly: use "
			 "tolerance: exact or leave it out",
			 elem_type_name(out->type), check->ref->name);
	const char *depth_keys[] = { "serial", "partials" };
	struct pexpr *depth[] = { &check->serial, &check->partials };
	for (int i = 0; i < 2; i++) {
		if ((v = yr_get(node, depth_keys[i])) == NULL)
			continue;
		if (check->tolerance == TOL_REDUCTION)
			yr_pexpr(&ld->r, v, pos, depth_keys[i], names, depth[i]);
		else
			yr_error(&ld->r, yr_key_pos(node, depth_keys[i], pos),
				 "%s describes the summation order of tolerance: reduction only",
				 depth_keys[i]);
	}
}

/* The checks: one a buffer marked output. A case with no output buffer needs none: it
 * runs for what the simulator finds and for whether devices run it at all. */
static void parse_checks(struct loader *ld, struct fy_node *node, struct src_pos at)
{
	struct test_case *tc = ld->tc;
	if (node == NULL && yr_misspelt(&ld->r, ld->root, "check"))
		return;
	if (node != NULL) {
		if (!yr_require_mapping(&ld->r, node, at, "check"))
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
			yr_error(&ld->r, tc->buffers[b].pos,
				 "output buffer '%s' has no check: add it "
				 "under check: with a reference",
				 tc->buffers[b].name);
	}
}

/* Whether two launches of a reference kernel are one: the same file, name and global. */
static bool same_reference(const struct step *a, const struct step *b)
{
	if (!a->kernel_file || !b->kernel_file || !a->kernel_name || !b->kernel_name ||
	    strcmp(a->kernel_file, b->kernel_file) != 0 ||
	    strcmp(a->kernel_name, b->kernel_name) != 0 || a->global_dims != b->global_dims)
		return false;
	for (unsigned d = 0; d < a->global_dims; d++)
		if (strcmp(expr_text(a->global[d].expr), expr_text(b->global[d].expr)) != 0)
			return false;
	return true;
}

/* A case's checks may name one reference kernel, which writes every output they check. */
static void check_one_reference_kernel(struct loader *ld)
{
	const struct step *first = NULL;
	for (size_t c = 0; c < ld->tc->nchecks; c++) {
		const struct check *ck = &ld->tc->checks[c];
		if (!ck->ref_step)
			continue;
		if (first && !same_reference(first, ck->ref_step))
			yr_error(&ld->r, ck->reference_pos,
				 "a case has one reference kernel, which writes every output its "
				 "checks compare: name %s here too, as an earlier check does",
				 first->kernel_name ? first->kernel_name : "it");
		first = first ? first : ck->ref_step;
	}
}

/* Whether every shape of `sub` is among those of `all`. */
static bool shapes_within(const struct shape *sub, size_t nsub, const struct shape *all,
			  size_t nall)
{
	for (size_t i = 0; i < nsub; i++) {
		bool found = false;
		for (size_t j = 0; j < nall && !found; j++)
			found = shape_equal(&sub[i], &all[j]);
		if (!found)
			return false;
	}
	return true;
}

/* reference: targets compares outputs at the shapes every target runs: the simulator's
 * must be among the devices', or Oclgrind's outputs would have nothing to meet. */
static void check_shared_shapes(struct loader *ld)
{
	struct test_case *tc = ld->tc;
	bool across = false;
	for (size_t c = 0; c < tc->nchecks; c++)
		across |= tc->checks[c].ref && tc->checks[c].ref->kind == REF_TARGETS;
	if (!across || tc->nsim_sizes == 0)
		return;
	if (!shapes_within(tc->sim_sizes, tc->nsim_sizes, tc->sizes, tc->nsizes) ||
	    !shapes_within(tc->sim_locals, tc->nsim_locals, tc->locals, tc->nlocals))
		yr_error(&ld->r, tc->sizes_pos,
			 "reference: targets compares the outputs of Oclgrind and the devices "
			 "where they run the same shape: list every sim_sizes entry in sizes, "
			 "and every sim_local entry in local");
}

/* Resolves the case at every N of `sizes` and L of `locals`; returns false after adding
 * the first failure's diagnostics (the other shapes would repeat it). */
static bool validate_shapes(struct loader *ld, const struct shape *sizes, size_t nsizes,
			    const struct shape *locals, size_t nlocals)
{
	for (size_t s = 0; s < nsizes; s++) {
		for (size_t l = 0; l < nlocals; l++) {
			struct plan plan;
			struct diag_list found = { 0 };
			if (plan_build(ld->tc, &sizes[s], &locals[l], 1, &plan, &found) == 0) {
				plan_free(&plan);
				continue;
			}
			ld->r.errors += diag_error_count(&found);
			diag_list_move(ld->r.diags, &found);
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
	if (ld->r.names_used & EXPR_CU)
		return;
	if (validate_shapes(ld, tc->sizes, tc->nsizes, tc->locals, tc->nlocals))
		validate_shapes(ld, tc->sim_sizes, tc->nsim_sizes,
				tc->nsim_locals ? tc->sim_locals : tc->locals,
				tc->nsim_locals ? tc->nsim_locals : tc->nlocals);
}

static void parse_case(struct loader *ld, struct fy_node *root)
{
	static const char *const keys[] = { "about",	"kernel",    "sizes",	"sim_sizes",
					    "local",	"sim_local", "global",	"offset",
					    "args",	"steps",     "check",	"racy",
					    "seed",	"options",   "timeout", "bytes",
					    "suppress", "sim_build", "non_uniform", NULL };
	struct test_case *tc = ld->tc;
	struct src_pos top = { 1, 1 };
	if (!yr_require_mapping(&ld->r, root, top, "a case file"))
		return;
	yr_reject_unknown_keys(&ld->r, root, "a case", keys);

	struct fy_node *v;
	/* Every buffer's seed derives from this one, so parse it before the arguments. */
	tc->seed = 1;
	if ((v = yr_get(root, "seed")) != NULL)
		parse_seed(ld, v, top, &tc->seed);

	ld->root = root;
	tc->about = yr_scalar_at(&ld->r, root, "about", top,
				 "an about line saying what the case shows (about: ...)");
	if ((v = yr_get(root, "racy")) != NULL)
		yr_bool(&ld->r, v, top, "racy", &tc->racy);
	if ((v = yr_get(root, "non_uniform")) != NULL)
		yr_bool(&ld->r, v, top, "non_uniform", &tc->non_uniform);
	if ((v = yr_get(root, "timeout")) != NULL)
		yr_seconds(&ld->r, v, top, "timeout", 3600, &tc->timeout_s);
	/* What one round moves, where the kernel reads a buffer more than once: bench's GB/s. */
	if ((v = yr_get(root, "bytes")) != NULL)
		yr_pexpr(&ld->r, v, top, "bytes", EXPR_SHAPE | EXPR_CU, &tc->bytes);
	if ((v = yr_get(root, "suppress")) != NULL)
		suppressions_parse(&ld->r, v, top, &tc->suppress);
	if ((v = yr_get(root, "sim_build")) != NULL) {
		char *build = yr_scalar(&ld->r, v, top, "the simulator's build");
		if (build && strcmp(build, "optimised") == 0)
			tc->sim_optimised = true;
		else if (build && strcmp(build, "as-written") != 0)
			yr_error(&ld->r, yr_pos(v, top),
				 "sim_build must be 'as-written' (the default: every access the "
				 "source makes) or 'optimised' (what the optimiser leaves)");
		free(build);
	}
	if ((v = yr_get(root, "options")) != NULL) {
		tc->options = yr_scalar(&ld->r, v, top, "build options");
		/* PoCL 3.1 prints LLVM noise and Oclgrind 21.10 refuses a program built with -g. */
		if (tc->options &&
		    (strcmp(tc->options, "-g") == 0 || strstr(tc->options, "-g ") == tc->options ||
		     strstr(tc->options, " -g")))
			yr_error(&ld->r, yr_pos(v, top),
				 "options must not contain -g: PoCL 3.1 and Oclgrind "
				 "21.10 builds fail with it");
		if (tc->options)
			resolve_include_dirs(ld, &tc->options, yr_pos(v, top));
	}

	tc->sizes_pos = yr_key_pos(root, "sizes", top);
	tc->local_pos = yr_key_pos(root, "local", top);
	if (!yr_misspelt(&ld->r, root, "sizes"))
		yr_shape_list(&ld->r, yr_get(root, "sizes"), tc->sizes_pos, "sizes", &tc->sizes,
			      &tc->nsizes);
	if (!yr_misspelt(&ld->r, root, "local"))
		yr_shape_list(&ld->r, yr_get(root, "local"), tc->local_pos, "local", &tc->locals,
			      &tc->nlocals);
	if ((v = yr_get(root, "sim_sizes")) != NULL)
		yr_shape_list(&ld->r, v, yr_key_pos(root, "sim_sizes", top), "sim_sizes",
			      &tc->sim_sizes, &tc->nsim_sizes);
	if ((v = yr_get(root, "sim_local")) != NULL)
		yr_shape_list(&ld->r, v, yr_key_pos(root, "sim_local", top), "sim_local",
			      &tc->sim_locals, &tc->nsim_locals);

	struct fy_node *steps = yr_get(root, "steps");
	if (steps != NULL) {
		const char *single[] = { "kernel", "global", "offset", "args" };
		for (int i = 0; i < 4; i++)
			if (yr_get(root, single[i]))
				yr_error(&ld->r, yr_key_pos(root, single[i], top),
					 "'%s' belongs inside each step when a case has steps",
					 single[i]);
		if (!fy_node_is_sequence(steps) || fy_node_sequence_item_count(steps) == 0) {
			yr_error(&ld->r, yr_pos(steps, yr_key_pos(root, "steps", top)),
				 "steps must be a non-empty list of launches, found %s",
				 yr_kind(steps));
		} else {
			tc->nsteps = (size_t)fy_node_sequence_item_count(steps);
			tc->steps = xcalloc(tc->nsteps, sizeof *tc->steps);
			void *iter = NULL;
			struct fy_node *item;
			for (size_t i = 0; (item = fy_node_sequence_iterate(steps, &iter)) != NULL;
			     i++)
				parse_step(ld, item, yr_key_pos(root, "steps", top), false,
					   &tc->steps[i]);
		}
	} else {
		tc->nsteps = 1;
		tc->steps = xcalloc(1, sizeof *tc->steps);
		parse_step(ld, root, top, true, &tc->steps[0]);
	}

	parse_checks(ld, yr_get(root, "check"), top);
	check_shared_shapes(ld);
	check_one_reference_kernel(ld);
	if (ld->r.errors == 0)
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
/* Appends to list the shapes of `more` it does not hold yet. */
static void add_shapes(struct shape **list, size_t *count, const struct shape *more, size_t nmore)
{
	for (size_t i = 0; i < nmore; i++) {
		bool held = false;
		for (size_t j = 0; j < *count && !held; j++)
			held = shape_equal(&(*list)[j], &more[i]);
		if (held)
			continue;
		*list = xreallocarray(*list, *count + 1, sizeof **list);
		(*list)[(*count)++] = more[i];
	}
}

/* Adds the (N, L) pairs of sizes x locals that the case's pairs do not hold yet. */
static void add_pairs(struct test_case *tc, const struct shape *sizes, size_t nsizes,
		      const struct shape *locals, size_t nlocals)
{
	for (size_t s = 0; s < nsizes; s++)
		for (size_t l = 0; l < nlocals; l++) {
			bool held = false;
			for (size_t p = 0; p < tc->npairs && !held; p++)
				held = shape_equal(&tc->pair_sizes[p], &sizes[s]) &&
				       shape_equal(&tc->pair_locals[p], &locals[l]);
			if (held)
				continue;
			tc->pair_sizes = xreallocarray(tc->pair_sizes, tc->npairs + 1,
						       sizeof *tc->pair_sizes);
			tc->pair_locals = xreallocarray(tc->pair_locals, tc->npairs + 1,
							sizeof *tc->pair_locals);
			tc->pair_sizes[tc->npairs] = sizes[s];
			tc->pair_locals[tc->npairs++] = locals[l];
		}
}

/* Makes a loaded case its own reference run: the reference kernel its one step, run at
 * exactly the (N, L) pairs the devices and the simulator run, and with --size or --local
 * at those crossed with every size and work-group size of either; no simulator run. */
static void make_reference_run(struct test_case *tc)
{
	add_pairs(tc, tc->sizes, tc->nsizes, tc->locals, tc->nlocals);
	add_pairs(tc, tc->sim_sizes, tc->nsim_sizes, tc->nsim_locals ? tc->sim_locals : tc->locals,
		  tc->nsim_locals ? tc->nsim_locals : tc->nlocals);
	struct step *ref = NULL;
	for (size_t c = 0; c < tc->nchecks && ref == NULL; c++) {
		ref = tc->checks[c].ref_step;
		tc->checks[c].ref_step = NULL;
	}
	for (size_t s = 0; s < tc->nsteps; s++)
		case_free_step(&tc->steps[s]);
	free(tc->steps);
	tc->steps = ref;
	tc->nsteps = 1;
	add_shapes(&tc->sizes, &tc->nsizes, tc->sim_sizes, tc->nsim_sizes);
	add_shapes(&tc->locals, &tc->nlocals, tc->sim_locals, tc->nsim_locals);
	free(tc->sim_sizes);
	free(tc->sim_locals);
	tc->sim_sizes = tc->sim_locals = NULL;
	tc->nsim_sizes = tc->nsim_locals = 0;
	char *name = xasprintf("%s (reference)", tc->name);
	free(tc->name);
	tc->name = name;
	tc->reference_run = true;
}

/* How far apart two targets may leave the case's floats: the bound the built-ins its
 * kernels call earn, each kernel file read once. */
static void float_bound(struct test_case *tc)
{
	struct strbuf all = { 0 };
	for (size_t s = 0; s < tc->nsteps; s++) {
		bool seen = false;
		for (size_t t = 0; t < s && !seen; t++)
			seen = tc->steps[t].kernel_path && tc->steps[s].kernel_path &&
			       strcmp(tc->steps[t].kernel_path, tc->steps[s].kernel_path) == 0;
		size_t len;
		char *source = !seen && tc->steps[s].kernel_path
				       ? read_file(tc->steps[s].kernel_path, &len)
				       : NULL;
		if (source)
			strbuf_printf(&all, "%s\n", source);
		free(source);
	}
	ulp_bound_of_source(all.data ? all.data : "", tc->options, &tc->float_ulps);
	strbuf_free(&all);
}

static struct test_case *load(const char *path, const char *text, struct diag_list *diags)
{
	struct loader ld = { .r = { .path = path, .diags = diags } };
	struct test_case *tc = xcalloc(1, sizeof *tc);
	tc->path = xstrdup(path);
	tc->name = case_name_from_path(path);
	ld.tc = tc;

	struct fy_document *doc = yr_open(&ld.r, text, "case file");
	if (doc) {
		parse_case(&ld, fy_document_root(doc));
		fy_document_destroy(doc);
	}
	yr_finish(&ld.r);
	free(ld.unparsed);

	if (ld.r.errors > 0) {
		case_free(tc);
		return NULL;
	}
	float_bound(tc);
	return tc;
}

struct test_case *case_load(const char *path, struct diag_list *diags)
{
	return load(path, NULL, diags);
}

struct test_case *case_load_reference(const struct test_case *tc, struct diag_list *diags)
{
	bool has = false;
	for (size_t c = 0; c < tc->nchecks; c++)
		has |= tc->checks[c].ref->kind == REF_KERNEL;
	if (!has)
		return NULL;
	struct test_case *ref = load(tc->path, NULL, diags);
	if (ref)
		make_reference_run(ref);
	return ref;
}

struct test_case *case_load_text(const char *path, const char *text, struct diag_list *diags)
{
	return load(path, text, diags);
}
