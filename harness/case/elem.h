/* elem.h - the element types a case's buffers and scalars hold: OpenCL C's scalar types
 * (char to double, and half) and their vectors of 2, 3, 4, 8 and 16 lanes. A vector
 * buffer is held as its lanes, one scalar after another; a 3-vector occupies 4, as in
 * OpenCL, and its fourth lane is padding that no comparison reads. */
#ifndef CLH_ELEM_H
#define CLH_ELEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

enum elem_type {
	ELEM_CHAR,
	ELEM_UCHAR,
	ELEM_SHORT,
	ELEM_USHORT,
	ELEM_INT,
	ELEM_UINT,
	ELEM_LONG,
	ELEM_ULONG,
	ELEM_HALF,
	ELEM_FLOAT,
	ELEM_DOUBLE,
};
#define ELEM_LAST ELEM_DOUBLE

/* The largest vector, and the text of the longest type name ("double16"). */
enum { ELEM_MAX_LANES = 16, ELEM_NAME_MAX = 16 };

/* The OpenCL C spelling of the scalar type: "int", "uchar", "half". */
const char *elem_type_name(enum elem_type type);
/* "float4" for (ELEM_FLOAT, 4), "int" for (ELEM_INT, 1). Returns text. */
char *elem_type_text(enum elem_type type, unsigned lanes, char text[ELEM_NAME_MAX]);
/* Parses an OpenCL C spelling of a scalar ("uint") or vector ("float4", "char16") type;
 * *lanes is 1 for a scalar. Returns -1 for anything else. */
int elem_type_parse(const char *name, enum elem_type *type, unsigned *lanes);
/* Every name elem_type_parse takes, for messages: "char, uchar, ..., double, and their
 * vectors of 2, 3, 4, 8 and 16 (float4)". */
const char *elem_type_names(void);

/* Bytes of one scalar of the type. */
size_t elem_size(enum elem_type type);
/* Scalars one element of `lanes` lanes occupies: lanes, but 4 for a 3-vector. */
unsigned elem_stride(unsigned lanes);
/* Whether scalar i of a buffer of `lanes`-lane vectors is padding (a 3-vector's fourth). */
bool elem_is_padding(unsigned lanes, size_t i);

bool elem_is_float(enum elem_type type);
bool elem_is_signed(enum elem_type type);
/* Bits of the type's significand, counting the hidden one: 11, 24 or 53; 0 for integers. */
int elem_precision(enum elem_type type);
/* u = 2^-precision: half the distance from 1 to the next value of a float type. */
double elem_unit_roundoff(enum elem_type type);
/* Bits of an integer type: 8 to 64. */
int elem_bits(enum elem_type type);

/* Scalar i of an array of the type, as a double: exact for every type but 64-bit
 * integers beyond 2^53. */
double elem_get(enum elem_type type, const void *data, size_t i);
/* Scalar i of an integer type as its value in 64 bits (sign-extended for signed types),
 * exact for every integer type. */
uint64_t elem_get_bits(enum elem_type type, const void *data, size_t i);
/* Stores v as scalar i: rounded to nearest for float types, and for integer types
 * converted to a 64-bit integer and then wrapped to the type's width, as a device's
 * arithmetic wraps. */
void elem_set(enum elem_type type, void *data, size_t i, double v);
/* v wrapped to the width of an integer type, in the form elem_get_bits gives. */
uint64_t elem_wrap(enum elem_type type, uint64_t v);
/* The smallest and largest values of an integer type, in that form. */
uint64_t elem_int_min(enum elem_type type);
uint64_t elem_int_max(enum elem_type type);
/* Stores the low bits of an integer value as scalar i of an integer type. */
void elem_set_bits(enum elem_type type, void *data, size_t i, uint64_t v);

/* IEEE binary16 to and from double, rounding to nearest even, for half buffers. */
double elem_half_to_double(uint16_t h);
uint16_t elem_double_to_half(double v);

/* A parameter's type in one spelling ("unsigned int *" and "uint*" are both "uint*";
 * "bool*" is "uchar*", the bytes it points to), since drivers and people spell types
 * differently. */
void kernel_type_normal(struct strbuf *out, const char *type);

#endif
