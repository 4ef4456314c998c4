/* record.h - structs a case passes by value or holds in buffers: a list of typed fields,
 * laid out as OpenCL C lays a struct out (each field at a multiple of its alignment, the
 * size of a scalar or vector, a 3-vector's that of its 4-vector; the struct aligned to its
 * largest field and padded to a multiple of that). */
#ifndef CLH_RECORD_H
#define CLH_RECORD_H

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
	size_t size;  /* bytes of one struct, trailing padding included */
	size_t align; /* its alignment */
};

/* Appends a field and lays the struct out again. */
void record_add(struct record *r, const char *name, enum elem_type type, unsigned lanes);
/* Bytes and alignment of one field's type. */
size_t record_field_size(const struct record_field *f);
/* "struct {float4 pos; float mass;}", for messages. Caller frees. */
char *record_text(const struct record *r);
struct record *record_copy(const struct record *r);
void record_free(struct record *r);

#endif
