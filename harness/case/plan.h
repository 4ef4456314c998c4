/* plan.h - a case resolved at one size N and work-group size L: every count, launch
 * shape and argument value as numbers, ready for a backend to execute. */
#ifndef CLH_PLAN_H
#define CLH_PLAN_H

#include <stddef.h>

#include "base/diag.h"
#include "case/testcase.h"

/* One lane's value in a launch: a whole number, or `number` where it is none. */
struct lane_number {
	bool fractional;
	long long whole;
	double number;
};

/* A scalar's value in a launch: lane[0] for every lane, or one a lane. */
struct plan_value {
	unsigned count;
	struct lane_number lane[ELEM_MAX_LANES];
};

struct plan_arg {
	enum arg_kind kind;
	size_t buffer;		     /* ARG_BUFFER */
	size_t local_bytes;	     /* ARG_LOCAL */
	struct plan_value value;     /* ARG_SCALAR */
	struct plan_value *fields;   /* ARG_SCALAR of a struct: each field's value */
	enum elem_type type;	     /* ARG_LOCAL, ARG_SCALAR */
	unsigned lanes;		     /* ARG_LOCAL, ARG_SCALAR */
	const struct record *record; /* ARG_LOCAL, ARG_SCALAR of a struct */
};

/* One kernel launch: a step, or one iteration of a repeated step. Its NDRange has dims
 * dimensions; offset is all zeros where the step gives none. */
struct plan_launch {
	size_t step;
	long long iteration;
	unsigned dims;
	size_t global[SHAPE_MAX_DIMS];
	size_t local[SHAPE_MAX_DIMS];
	size_t offset[SHAPE_MAX_DIMS];
	struct plan_arg *args;
	size_t nargs;
};

/* The most kernel launches one shape of a case may make: its repeats are planned up
 * front, so a repeat of a billion would take the whole run down for want of memory. */
enum { PLAN_MAX_LAUNCHES = 10000 };

struct plan_check {
	size_t group;
	long long shift;
	size_t width, height; /* matrix references */
	size_t count;
	long long depth; /* TOL_REDUCTION: serial + ceil(log2(partials)) */
	bool elsewhere;	 /* the check's values are of another launch shape (at:): not compared */
};

struct plan {
	struct shape n, l;
	long long cu;
	long long bytes;       /* the case's bytes: expression; 0 without one */
	size_t *buffer_counts; /* elements of each buffer of the case */
	struct plan_launch *launches;
	size_t nlaunches;
	struct plan_check *checks;
	bool non_uniform; /* some launch's global size is no multiple of its work-group size */
};

/* Resolves the case at size n and work-group shape l on a device with `cu` compute units.
 * On an expression that fails (division by zero, a count that is not positive, a global
 * size that is not a multiple of the local size unless the case is non_uniform, global, local and offset of different
 * dimensions) adds a diagnostic at the expression's position, naming N and L, and returns
 * -1; the plan is then empty. */
int plan_build(const struct test_case *tc, const struct shape *n, const struct shape *l,
	       long long cu, struct plan *out, struct diag_list *diags);
void plan_free(struct plan *plan);

/* Buffer b of the case at the plan's size: its scalars (every lane, a 3-vector's padding
 * too), and their bytes (SIZE_MAX where that does not fit a size_t). */
size_t plan_buffer_scalars(const struct test_case *tc, const struct plan *plan, size_t b);
size_t plan_buffer_bytes(const struct test_case *tc, const struct plan *plan, size_t b);

#endif
