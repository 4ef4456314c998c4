/* Included by scale_factor.h, found beside it. */
#define BASE 2
