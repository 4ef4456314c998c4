/* elem.h - the element types a case's buffers and scalars can hold. */
#ifndef CLH_ELEM_H
#define CLH_ELEM_H

#include <stddef.h>
#include <stdint.h>

enum elem_type { ELEM_INT, ELEM_UINT, ELEM_FLOAT };

/* The OpenCL C spelling: "int", "uint", "float". */
const char *elem_type_name(enum elem_type type);
/* Parses an OpenCL C spelling; returns -1 for anything else. */
int elem_type_parse(const char *name, enum elem_type *type);
/* Every type is 4 bytes today; callers use this rather than assume it. */
size_t elem_size(enum elem_type type);
/* Reads element i of a buffer as a double (exact for all three types). */
double elem_get(enum elem_type type, const void *data, size_t i);

#endif
