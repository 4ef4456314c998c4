/* reference.h - CPU references: what a correct kernel writes, computed on the host. */
#ifndef CLH_REFERENCE_H
#define CLH_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "case/elem.h"

enum ref_kind {
	REF_SUM,
	REF_MIN,
	REF_MAX,
	REF_DOT,
	REF_SUM_PER_GROUP,
	REF_MIN_PER_GROUP,
	REF_MAX_PER_GROUP,
	REF_DOT_PER_GROUP,
	REF_INCLUSIVE_SCAN,
	REF_EXCLUSIVE_SCAN,
	REF_INCLUSIVE_SCAN_PER_BLOCK,
	REF_EXCLUSIVE_SCAN_PER_BLOCK,
	REF_SUM_PER_GROUP_BROADCAST,
	REF_INCLUSIVE_SCAN_COLUMNS,
	REF_ROTATE,
	REF_ROTATE_PER_GROUP,
	REF_HISTOGRAM,
	REF_TRANSPOSE,
	REF_MATMUL,
	REF_STENCIL5,
	REF_CONVOLVE,
	REF_FILE,    /* the expected values a data file holds: the one input, copied */
	REF_TARGETS, /* none: the outputs of every target are compared with each other */
	REF_KERNEL,  /* a reference kernel's output on a CPU device */
};

/* What a case may say about a reference, from the table in reference.c. */
struct ref_info {
	const char *name;
	enum ref_kind kind;
	int inputs;	/* buffers named by `of`: 2 for dot products, else 1 */
	bool per_group; /* takes `group` (default L): one result per group or block */
	bool shifted;	/* takes `shift`: the rotation amount */
	bool sums;	/* float results carry rounding error, so need a tolerance */
	bool matrix;	/* reads its inputs as row-major matrices: takes width and height */
};

/* What a reference is computed with besides its inputs. */
struct ref_params {
	size_t group;	 /* per-group references: elements a group or block */
	long long shift; /* rotations */
	size_t width;	 /* matrix references: the output's columns */
	size_t height;	 /* and rows */
};

/* Looks a reference up by the name a case uses; NULL if there is none. */
const struct ref_info *ref_lookup(const char *name);
/* The reference of a check whose expected values come from a data file. */
const struct ref_info *ref_file(void);
/* The reference of a check whose expected values a reference kernel writes. */
const struct ref_info *ref_kernel(void);
/* How many input buffers reference `kind` reads. */
int ref_input_count(enum ref_kind kind);
/* A comma-separated list of every name, for error messages. */
const char *ref_names(void);

/* An input buffer: `count` elements of `lanes` lanes, held as count * elem_stride(lanes)
 * scalars of `type`. */
struct ref_input {
	enum elem_type type;
	unsigned lanes;
	const void *data;
	size_t count;
};

/* The wanted output, `count` scalars of `type` (elements of `lanes` lanes, a 3-vector's
 * padding included and never compared). For integer types want_bits[] holds the exact
 * values (wrapped to the type's width as the device's arithmetic wraps, in
 * elem_get_bits's form) and want[] the same as doubles, for reports. For float types
 * want[] holds the result to double precision, summed with Neumaier's compensation so
 * the reference error is negligible; for their sums magnitude[i] is sum|x| (sum|a*b| for
 * dot products) over the terms of scalar i and terms[i] their number: the comparison
 * bound needs both. */
struct ref_output {
	enum elem_type type;
	unsigned lanes;
	size_t count;
	double *want;
	uint64_t *want_bits;
	double *magnitude;
	size_t *terms;
};

/* Computes `count` elements of reference `kind` over the inputs. p->group is the group or
 * block size of per-group references (the row width of REF_INCLUSIVE_SCAN_COLUMNS, which
 * scans each column of a row-major matrix); p->shift the rotation of REF_ROTATE and of
 * REF_ROTATE_PER_GROUP, which rotates within each group. Groups past the end of the
 * input reduce nothing and get the operation's identity. REF_SUM_PER_GROUP_BROADCAST
 * gives every element its group's sum. REF_HISTOGRAM's element b counts the inputs equal
 * to b; other values fall in no bin. The matrix references make a p->height x p->width
 * row-major output: REF_TRANSPOSE of a width x height input (out[x][y] = in[y][x]);
 * REF_MATMUL of a (height x k) by a (k x width) matrix, k = the first's count / height;
 * REF_STENCIL5 the sum of each element and its four neighbours, those outside the grid
 * counting 0; REF_CONVOLVE the second input, a square filter of odd side s, applied at
 * every element (sum over i, j of filter[j][i] * in[y + j - s/2][x + i - s/2], zero
 * outside the grid). */
void ref_compute(enum ref_kind kind, const struct ref_input *inputs, const struct ref_params *p,
		 size_t count, struct ref_output *out);
/* ref_compute for an output of `type` with `lanes` lanes, `count` elements of it. Where the
 * inputs have as many lanes as the output, each lane is computed on its own (a float4
 * sum per group is four sums per group); a scalar output of vector inputs takes every
 * lane of an element as a term (a float output of a float4 sum adds all four, and a
 * group of L elements holds L * lanes terms). A histogram counts into an int or uint
 * output whatever the inputs' integer type. */
void ref_compute_lanes(enum ref_kind kind, const struct ref_input *inputs,
		       const struct ref_params *p, enum elem_type type, unsigned lanes,
		       size_t count, struct ref_output *out);
void ref_output_free(struct ref_output *out);

#endif
