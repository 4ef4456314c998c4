/* gen.h - input generators: fill, iota, seeded random data and poison. */
#ifndef CLH_GEN_H
#define CLH_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "case/elem.h"
#include "case/testcase.h"

/* The poison written into buffers without an init: a NaN for float types, so any
 * comparison with it fails, and the bytes of 0xDEADBEEF for integers (0xEF in a char). */
#define GEN_POISON_BITS	       0xDEADBEEFDEADBEEFull
#define GEN_POISON_HALF_BITS   0x7EADu
#define GEN_POISON_FLOAT_BITS  0x7FC0DEADu
#define GEN_POISON_DOUBLE_BITS 0x7FF8DEADDEADBEEFull
/* The poison of an element type, as elem_get_bits reads it back: an element that still
 * holds it after a run was never written. */
uint64_t gen_poison_bits(enum elem_type type);

/* The seed of a buffer without a seed of its own: the case's seed mixed with the
 * buffer's name, so two buffers of one case get different data. */
uint64_t gen_buffer_seed(uint64_t case_seed, const char *buffer_name);

/* Fills `count` scalars of `type` at `out` as `init` says (a file's elements are copied
 * as they are): every lane of a vector buffer, each lane a scalar of its own (iota counts
 * lanes). The same init (and so the
 * same seed) always gives the same data, and element i does not depend on count, so a
 * larger size extends a smaller one. */
void gen_fill(enum elem_type type, const struct init_spec *init, void *out, size_t count);
/* Fills `count` structs laid out as `record` says: each field as gen_fill fills a buffer of
 * its type (its own seed, mixed with the field's name), padding bytes zero; from a data
 * file, the structs' bytes as it holds them. */
void gen_fill_record(const struct record *record, const struct init_spec *init, void *out,
		     size_t count);

#endif
