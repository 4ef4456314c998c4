/* shape.h - a size or work-group shape of one to three dimensions (1024, 1024x768,
 * 64x64x8): the N and L of a run, written and read the one way every report uses. */
#ifndef CLH_SHAPE_H
#define CLH_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

enum { SHAPE_MAX_DIMS = 3, SHAPE_TEXT_MAX = 64, SHAPE_RUN_TEXT_MAX = 2 * SHAPE_TEXT_MAX + 8 };
/* No device has more work-items than this in one dimension; larger is a typo. */
#define SHAPE_DIM_MAX (1LL << 40)

/* dims 0 is no shape at all (a result about a whole case); dimensions past dims are 1,
 * so that M and K of a 1-D size read as 1. */
struct shape {
	unsigned dims;
	long long d[SHAPE_MAX_DIMS];
};

/* The 1-D shape of v. */
struct shape shape_1d(long long v);
/* The shape of an NDRange's `dims` sizes. */
struct shape shape_of_sizes(const size_t *v, unsigned dims);
/* "1024" or "1024x768"; "" for no shape. Returns text. */
char *shape_format(const struct shape *s, char text[SHAPE_TEXT_MAX]);
/* A run's shapes as every report names them: "N=1024x768" `sep` "L=16x16". Returns text. */
char *shape_run_text(const struct shape *n, const struct shape *l, const char *sep,
		     char text[SHAPE_RUN_TEXT_MAX]);
/* Parses "1024", "1024x768" or "64x64x8" (each dimension 1 to SHAPE_DIM_MAX); -1 for
 * anything else. */
int shape_parse(const char *text, struct shape *out);
/* Orders by dimensions, then dimension by dimension. */
int shape_cmp(const struct shape *a, const struct shape *b);
bool shape_equal(const struct shape *a, const struct shape *b);
/* The product of the dimensions (1 for no shape); -1 where it overflows. */
long long shape_volume(const struct shape *s);

/* Whether some dimension of global size n is no multiple of work-group size l: the last
 * work-group there is smaller (a non-uniform launch). */
bool shape_is_ragged(const struct shape *n, const struct shape *l);

/* The most work-items a simulated launch the user did not size for the simulator may
 * have: Oclgrind runs 10^3 to 10^4 times slower than a device, and a million items take
 * it minutes even for a kernel of one line. */
#define SHAPE_SIMULATED_ITEMS 16384
/* The launch a simulator runs in place of global size `n` in work-groups `l` when n is
 * too big to simulate in time: the same work-group shape, three groups along the first
 * dimension and at most two along each other, which is where work-groups meet, and a
 * smaller last group where n has one. Returns
 * whether it shrank; `out` is n where it did not (n has SHAPE_SIMULATED_ITEMS or fewer,
 * or no more groups than that). */
bool shape_shrink_for_simulation(const struct shape *n, const struct shape *l,
				 struct shape *out);
/* The same few work-groups whatever n's size, for a launch too costly to simulate for its
 * work rather than its items. Returns whether that is fewer items than n. */
bool shape_few_groups(const struct shape *n, const struct shape *l, struct shape *out);

#endif
