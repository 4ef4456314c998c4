/* record.c - structs laid out as OpenCL C lays them out. */
#include "config.h"

#include "case/record.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

size_t record_field_size(const struct record_field *f)
{
	return elem_size(f->type) * elem_stride(f->lanes);
}

void record_add(struct record *r, const char *name, enum elem_type type, unsigned lanes)
{
	r->fields = xreallocarray(r->fields, r->nfields + 1, sizeof *r->fields);
	r->fields[r->nfields++] =
		(struct record_field){ .name = xstrdup(name), .type = type, .lanes = lanes };
	/* A scalar or vector is aligned to its own size (a 3-vector to its 4-vector's). */
	size_t at = 0;
	r->align = 1;
	for (size_t i = 0; i < r->nfields; i++) {
		size_t size = record_field_size(&r->fields[i]);
		at = (at + size - 1) / size * size;
		r->fields[i].offset = at;
		at += size;
		r->align = size > r->align ? size : r->align;
	}
	r->size = (at + r->align - 1) / r->align * r->align;
}

void record_add_at(struct record *r, const char *name, enum elem_type type, unsigned lanes,
		   size_t offset)
{
	r->fields = xreallocarray(r->fields, r->nfields + 1, sizeof *r->fields);
	r->fields[r->nfields++] = (struct record_field){
		.name = xstrdup(name), .type = type, .lanes = lanes, .offset = offset
	};
	r->explicit_layout = true;
}

void record_close(struct record *r, size_t size, size_t align)
{
	r->size = size;
	r->align = align ? align : 1;
}

bool record_is_natural(const struct record *r)
{
	struct record natural = { 0 };
	for (size_t i = 0; i < r->nfields; i++)
		record_add(&natural, r->fields[i].name, r->fields[i].type, r->fields[i].lanes);
	bool same = natural.size == r->size && natural.align == r->align;
	for (size_t i = 0; i < r->nfields; i++) {
		same &= natural.fields[i].offset == r->fields[i].offset;
		free(natural.fields[i].name);
	}
	free(natural.fields);
	return same;
}

char *record_text(const struct record *r)
{
	struct strbuf out = { 0 };
	strbuf_puts(&out, "struct {");
	for (size_t i = 0; i < r->nfields; i++) {
		char type[ELEM_NAME_MAX];
		strbuf_printf(&out, "%s%s %s;", i ? " " : "",
			      elem_type_text(r->fields[i].type, r->fields[i].lanes, type),
			      r->fields[i].name);
	}
	strbuf_puts(&out, "}");
	return strbuf_take(&out);
}

struct record *record_copy(const struct record *r)
{
	struct record *copy = xcalloc(1, sizeof *copy);
	for (size_t i = 0; i < r->nfields; i++) {
		const struct record_field *f = &r->fields[i];
		if (r->explicit_layout)
			record_add_at(copy, f->name, f->type, f->lanes, f->offset);
		else
			record_add(copy, f->name, f->type, f->lanes);
	}
	if (r->explicit_layout)
		record_close(copy, r->size, r->align);
	return copy;
}

void record_free(struct record *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nfields; i++)
		free(r->fields[i].name);
	free(r->fields);
	free(r);
}

char *record_case_text(const struct record *rec)
{
	struct strbuf out = { 0 };
	bool natural = !rec->explicit_layout || record_is_natural(rec);
	if (!natural)
		strbuf_printf(&out, "{size: %zu, align: %zu, fields: ", rec->size, rec->align);
	strbuf_puts(&out, "[");
	for (size_t f = 0; f < rec->nfields; f++) {
		const struct record_field *field = &rec->fields[f];
		char type[ELEM_NAME_MAX];
		bool plain =
			strspn(field->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					    "0123456789_") == strlen(field->name);
		strbuf_printf(&out, "%s{%s%s%s: %s", f ? ", " : "", plain ? "" : "'", field->name,
			      plain ? "" : "'", elem_type_text(field->type, field->lanes, type));
		if (!natural)
			strbuf_printf(&out, ", at: %zu", field->offset);
		strbuf_puts(&out, "}");
	}
	strbuf_puts(&out, natural ? "]" : "]}");
	return strbuf_take(&out);
}
