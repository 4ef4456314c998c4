/* ulps.h - how far apart two conforming devices may leave a float a kernel computed: the
 * error bounds, in units in the last place, that the OpenCL C specification gives the
 * built-in math functions the kernel calls (exp 3 ulp, sin 4, pow 16, ...), loosened where
 * it is built with -cl-fast-relaxed-math or lets a multiply and an add fuse. Outputs of
 * one kernel on two targets are compared within it, never exactly where the language
 * lets them differ, and never loosely where it does not: + - * are correctly rounded, so
 * a kernel that calls nothing inexact is compared exactly. */
#ifndef CLH_ULPS_H
#define CLH_ULPS_H

#include <stdbool.h>
#include <stddef.h>

#include "case/elem.h"

/* A bound and what earns it, for messages: "exp 3 + log 3, relaxed x4". */
struct ulp_bound {
	double ulps; /* 0: exact */
	char why[160];
};

/* The bound the calls in `source` earn, built with `options` (NULL: none): each call of
 * a built-in with an error bound adds it once. */
void ulp_bound_of_source(const char *source, const char *options, struct ulp_bound *out);

/* Whether a and b of `type` lie within `ulps` units in the last place of the larger in
 * magnitude (NaN matches NaN; an infinity only itself). */
bool within_ulps(enum elem_type type, double a, double b, double ulps);

/* How many units in the last place of the larger in magnitude a and b lie apart. */
double ulps_apart(enum elem_type type, double a, double b);

#endif
