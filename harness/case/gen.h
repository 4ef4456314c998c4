/* gen.h - input generators: fill, iota, seeded random data and poison. */
#ifndef CLH_GEN_H
#define CLH_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "case/elem.h"
#include "case/testcase.h"

/* The poison written into buffers without an init: a NaN for floats, so any comparison
 * with it fails, and 0xDEADBEEF for integers. */
#define GEN_POISON_BITS	      0xDEADBEEFu
#define GEN_POISON_FLOAT_BITS 0x7FC0DEADu

/* The seed of a buffer without a seed of its own: the case's seed mixed with the
 * buffer's name, so two buffers of one case get different data. */
uint64_t gen_buffer_seed(uint64_t case_seed, const char *buffer_name);

/* Fills `count` elements of `type` at `out` as `init` says (a file's elements are copied
 * as they are). The same init (and so the
 * same seed) always gives the same data, and element i does not depend on count, so a
 * larger size extends a smaller one. */
void gen_fill(enum elem_type type, const struct init_spec *init, void *out, size_t count);

#endif
