/* gen.h - input generators: fill, iota, seeded random data and poison. */
#ifndef CLH_GEN_H
#define CLH_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "elem.h"
#include "testcase.h"

/* The poison written into buffers without an init: a NaN for floats, so any comparison
 * with it fails, and 0xDEADBEEF for integers. */
#define GEN_POISON_BITS 0xDEADBEEFu
#define GEN_POISON_FLOAT_BITS 0x7FC0DEADu

/* Fills `count` elements of `type` at `out` as `init` says. The same init (and so the
 * same seed) always gives the same data, and element i does not depend on count, so a
 * larger size extends a smaller one. */
void gen_fill(enum elem_type type, const struct init_spec *init, void *out, size_t count);

#endif
