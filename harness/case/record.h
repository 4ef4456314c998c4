/* record.h - structs a case passes by value or holds in buffers: a list of typed fields,
 * laid out as OpenCL C lays a struct out (each field at a multiple of its alignment, the
 * size of a scalar or vector, a 3-vector's that of its 4-vector; the struct aligned to its
 * largest field and padded to a multiple of that), or at offsets given outright, for the
 * layouts a flat list of fields cannot state: packed structs, nested structs and arrays,
 * each flattened to its scalar and vector fields ("in.b[2]"). */
#ifndef CLH_RECORD_H
#define CLH_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "case/elem.h"

struct record_field {
	char *name;
	enum elem_type type;
	unsigned lanes;
	size_t offset; /* bytes from the struct's start */
};

struct record {
	struct record_field *fields;
	size_t nfields;
	size_t size;	      /* bytes of one struct, trailing padding included */
	size_t align;	      /* its alignment */
	bool explicit_layout; /* offsets, size and alignment given, not derived */
};

/* Appends a field and lays the struct out again. */
void record_add(struct record *r, const char *name, enum elem_type type, unsigned lanes);
/* Appends a field at `offset` bytes: the record's layout is then given outright, and
 * record_close sets its size and alignment. */
void record_add_at(struct record *r, const char *name, enum elem_type type, unsigned lanes,
		   size_t offset);
void record_close(struct record *r, size_t size, size_t align);
/* Whether the fields are where OpenCL C's rules would put them, with no padding or
 * packing of another's, so the plain list of fields states the layout. */
bool record_is_natural(const struct record *r);
/* Bytes and alignment of one field's type. */
size_t record_field_size(const struct record_field *f);
/* "struct {float4 pos; float mass;}", for messages. Caller frees. */
char *record_text(const struct record *r);
/* A struct's fields in the case syntax: [{pos: float4}, {mass: float}] where OpenCL C's
 * rules lay them out so, else with their offsets, {size: 5, align: 1, fields: [{tag:
 * char, at: 0}, {value: float, at: 1}]}; a flattened field's name ('in.b[2]') quoted, as
 * YAML's flow style wants brackets to be. Caller frees. */
char *record_case_text(const struct record *rec);
struct record *record_copy(const struct record *r);
void record_free(struct record *r);

#endif
