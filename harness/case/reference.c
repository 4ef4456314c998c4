/* reference.c - CPU references: sums, minima, maxima, dot products, scans, rotations. */
#include "config.h"

#include "case/reference.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "base/util.h"

static const struct ref_info refs[] = {
	{ "sum", REF_SUM, 1, false, false, true, false },
	{ "min", REF_MIN, 1, false, false, false, false },
	{ "max", REF_MAX, 1, false, false, false, false },
	{ "dot", REF_DOT, 2, false, false, true, false },
	{ "sum_per_group", REF_SUM_PER_GROUP, 1, true, false, true, false },
	{ "min_per_group", REF_MIN_PER_GROUP, 1, true, false, false, false },
	{ "max_per_group", REF_MAX_PER_GROUP, 1, true, false, false, false },
	{ "dot_per_group", REF_DOT_PER_GROUP, 2, true, false, true, false },
	{ "inclusive_scan", REF_INCLUSIVE_SCAN, 1, false, false, true, false },
	{ "exclusive_scan", REF_EXCLUSIVE_SCAN, 1, false, false, true, false },
	{ "inclusive_scan_per_block", REF_INCLUSIVE_SCAN_PER_BLOCK, 1, true, false, true, false },
	{ "exclusive_scan_per_block", REF_EXCLUSIVE_SCAN_PER_BLOCK, 1, true, false, true, false },
	{ "sum_per_group_broadcast", REF_SUM_PER_GROUP_BROADCAST, 1, true, false, true, false },
	{ "inclusive_scan_columns", REF_INCLUSIVE_SCAN_COLUMNS, 1, true, false, true, false },
	{ "rotate", REF_ROTATE, 1, false, true, false, false },
	{ "rotate_per_group", REF_ROTATE_PER_GROUP, 1, true, true, false, false },
	{ "histogram", REF_HISTOGRAM, 1, false, false, false, false },
	{ "transpose", REF_TRANSPOSE, 1, false, false, false, true },
	{ "matmul", REF_MATMUL, 2, false, false, true, true },
	{ "stencil5", REF_STENCIL5, 1, false, false, true, true },
	{ "convolve", REF_CONVOLVE, 2, false, false, true, true },
	{ "targets", REF_TARGETS, 0, false, false, false, false },
};

const struct ref_info *ref_file(void)
{
	/* Not in the table: a case names it as {file: ...}, never by a name. */
	static const struct ref_info file = { "file", REF_FILE, 1, false, false, false, false };
	return &file;
}

int ref_input_count(enum ref_kind kind)
{
	for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
		if (refs[i].kind == kind)
			return refs[i].inputs;
	return 1;
}

const struct ref_info *ref_kernel(void)
{
	static const struct ref_info kernel = {
		"kernel", REF_KERNEL, 0, false, false, false, false
	};
	return &kernel;
}

const struct ref_info *ref_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
		if (strcmp(refs[i].name, name) == 0)
			return &refs[i];
	return NULL;
}

const char *ref_names(void)
{
	static char list[512];
	if (list[0] == '\0') {
		for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
			if (i > 0)
				strcat(list, ", ");
			strcat(list, refs[i].name);
		}
	}
	return list;
}

enum combine { COMBINE_SUM, COMBINE_MIN, COMBINE_MAX };

/* A running reduction. Integers wrap at their type's width as the device's do; floats
 * are summed in double with Neumaier's compensation, which keeps the reference error far
 * below the rounding the comparison bound allows. */
struct acc {
	enum elem_type type;
	enum combine combine;
	bool real;	  /* a float type: sum, comp, extreme and magnitude hold it */
	uint64_t bits;	  /* integer sum, min or max, in elem_get_bits's form */
	uint64_t mask;	  /* an integer type's bits; its sign bit, where it has one: */
	uint64_t sign;	  /* elem_wrap's work, kept out of the inner loop */
	double sum, comp; /* float sum and its compensation */
	double extreme;	  /* float min or max */
	double magnitude; /* sum of |term| */
	size_t terms;
};

static void acc_reset(struct acc *a, enum elem_type type, enum combine combine)
{
	*a = (struct acc){ .type = type, .combine = combine, .real = elem_is_float(type) };
	int width = elem_bits(type);
	a->mask = width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
	a->sign = elem_is_signed(type) ? UINT64_C(1) << (width - 1) : 0;
	if (combine == COMBINE_MIN) {
		a->bits = a->real ? 0 : elem_int_max(type);
		a->extreme = INFINITY;
	} else if (combine == COMBINE_MAX) {
		a->bits = a->real ? 0 : elem_int_min(type);
		a->extreme = -INFINITY;
	}
}

/* Neumaier's step: x into the compensated sum. */
static inline void acc_sum_real(struct acc *a, double x)
{
	double t = a->sum + x;
	a->comp += fabs(a->sum) >= fabs(x) ? (a->sum - t) + x : (x - t) + a->sum;
	a->sum = t;
}

static inline void acc_extreme_real(struct acc *a, double x)
{
	if (a->combine == COMBINE_MIN)
		a->extreme = x < a->extreme ? x : a->extreme;
	else
		a->extreme = x > a->extreme ? x : a->extreme;
}

static inline void acc_bits(struct acc *a, uint64_t xbits)
{
	if (a->combine == COMBINE_SUM) {
		/* elem_wrap: the low bits, sign-extended. */
		uint64_t v = (a->bits + xbits) & a->mask;
		a->bits = v & a->sign ? v | ~a->mask : v;
	} else if (elem_is_signed(a->type)) {
		int64_t cur = (int64_t)a->bits, v = (int64_t)xbits;
		if (a->combine == COMBINE_MIN ? v < cur : v > cur)
			a->bits = xbits;
	} else {
		if (a->combine == COMBINE_MIN ? xbits < a->bits : xbits > a->bits)
			a->bits = xbits;
	}
}

/* Adds one term: x for float types, xbits (exact, in elem_get_bits's form) for integers. */
static inline void acc_add(struct acc *a, double x, uint64_t xbits)
{
	a->terms++;
	if (!a->real) {
		acc_bits(a, xbits);
		return;
	}
	a->magnitude += fabs(x);
	if (a->combine == COMBINE_SUM)
		acc_sum_real(a, x);
	else
		acc_extreme_real(a, x);
}

/* Folds b, the reduction of the terms that follow a's, into a. */
static void acc_merge(struct acc *a, const struct acc *b)
{
	a->terms += b->terms;
	if (!a->real) {
		acc_bits(a, b->bits);
		return;
	}
	a->magnitude += b->magnitude;
	if (a->combine == COMBINE_SUM) {
		acc_sum_real(a, b->sum);
		acc_sum_real(a, b->comp);
	} else {
		acc_extreme_real(a, b->extreme);
	}
}

static double acc_value(const struct acc *a)
{
	if (a->real)
		return a->combine == COMBINE_SUM ? a->sum + a->comp : a->extreme;
	return elem_is_signed(a->type) ? (double)(int64_t)a->bits : (double)a->bits;
}

/* Element i of a float input, the common types read directly: the references' inner
 * loops run over 2^28 elements. */
static inline double real_at(const struct ref_input *in, size_t i)
{
	if (in->type == ELEM_FLOAT)
		return ((const float *)in->data)[i];
	if (in->type == ELEM_DOUBLE)
		return ((const double *)in->data)[i];
	return elem_get(in->type, in->data, i);
}

/* Element i of an integer input in elem_get_bits's form, the common types read
 * directly, as real_at does. */
static inline uint64_t bits_at(const struct ref_input *in, size_t i)
{
	if (in->type == ELEM_INT)
		return (uint64_t)(int64_t)((const int32_t *)in->data)[i];
	if (in->type == ELEM_UINT)
		return ((const uint32_t *)in->data)[i];
	return elem_get_bits(in->type, in->data, i);
}

/* Adds x[i], or x[i] * b[j] where b is given. */
static inline void acc_add_pair(struct acc *a, const struct ref_input *x, size_t i,
				const struct ref_input *b, size_t j)
{
	if (a->real) {
		/* A float product is exact in double. */
		double v = real_at(x, i);
		if (b)
			v *= real_at(b, j);
		acc_add(a, v, 0);
		return;
	}
	uint64_t v = bits_at(x, i);
	/* Integer products wrap like the device's. */
	if (b)
		v = elem_wrap(a->type, v * bits_at(b, j));
	acc_add(a, 0, v);
}

/* Adds term i of the inputs: x[i], or a[i] * b[i] for dot products. */
static inline void acc_add_term(struct acc *a, const struct ref_input *inputs, int ninputs,
				size_t i)
{
	acc_add_pair(a, &inputs[0], i, ninputs == 2 ? &inputs[1] : NULL, i);
}

/* acc_add_term over terms [from, to) of the inputs: the same terms in the same order,
 * with the sums of one int, uint or float input, the catalogue's usual reduction, in
 * loops of their own rather than a call a term. An integer sum wraps once at the end:
 * wrapping is the same modulo 2^64 as at every step. */
static void acc_add_terms(struct acc *a, const struct ref_input *inputs, int ninputs,
			  size_t from, size_t to)
{
	const struct ref_input *x = &inputs[0];
	bool sum = a->combine == COMBINE_SUM && ninputs == 1 && from < to;
	if (sum && !a->real && x->type == ELEM_INT) {
		const int32_t *v = x->data;
		uint64_t total = 0;
		for (size_t i = from; i < to; i++)
			total += (uint64_t)(int64_t)v[i];
		a->terms += to - from;
		acc_bits(a, total);
		return;
	}
	if (sum && !a->real && x->type == ELEM_UINT) {
		const uint32_t *v = x->data;
		uint64_t total = 0;
		for (size_t i = from; i < to; i++)
			total += v[i];
		a->terms += to - from;
		acc_bits(a, total);
		return;
	}
	if (sum && a->real && x->type == ELEM_FLOAT) {
		const float *v = x->data;
		for (size_t i = from; i < to; i++) {
			double t = v[i];
			a->magnitude += fabs(t);
			acc_sum_real(a, t);
		}
		a->terms += to - from;
		return;
	}
	for (size_t i = from; i < to; i++)
		acc_add_term(a, inputs, ninputs, i);
}

/* Element `from` of x, copied exactly as element i of the output. */
static void copy_element(struct ref_output *out, size_t i, const struct ref_input *x, size_t from)
{
	out->want[i] = elem_get(x->type, x->data, from);
	if (out->want_bits)
		out->want_bits[i] = elem_get_bits(x->type, x->data, from);
}

static void record(struct ref_output *out, size_t i, const struct acc *a)
{
	out->want[i] = acc_value(a);
	if (out->want_bits)
		out->want_bits[i] = a->bits;
	if (out->magnitude) {
		out->magnitude[i] = a->magnitude;
		out->terms[i] = a->terms;
	}
}

/* Where element i of a rotation by `shift` reads, as an offset into its run of `size`
 * elements: (i + shift) mod size, for a shift of either sign. */
static size_t turned(size_t i, size_t size, long long shift)
{
	long long s = (long long)size;
	return (size_t)(((long long)(i % size) + shift % s + s) % s);
}

/* Adds x[i] (or x[i] * b[j] where b is given) to a, or nothing where i (or j) is past the
 * input: matrix references reach only what exists. */
static void acc_add_at(struct acc *a, const struct ref_input *x, size_t i,
		       const struct ref_input *b, size_t j)
{
	if (i < x->count && (b == NULL || j < b->count))
		acc_add_pair(a, x, i, b, j);
}

/* One reference being computed: what ref_compute was given, and how its outputs split
 * into units that are computed on their own (a group, a column, an element). */
struct job {
	enum ref_kind kind;
	const struct ref_input *inputs;
	int ninputs;
	const struct ref_params *p;
	size_t n;     /* terms the inputs hold */
	size_t count; /* outputs */
	enum combine combine;
	struct ref_output *out;
	size_t units;		/* independent units: groups, blocks, columns or elements */
	size_t units_per_piece; /* about PARALLEL_GRAIN terms a piece */
	struct acc *pieces;	/* whole reductions and scans: one a piece of the input */
	bool inclusive;
};

/* Output i of a matrix reference: out is p->height x p->width, row-major. */
static void matrix_element(const struct job *job, size_t i)
{
	const struct ref_input *x = &job->inputs[0], *b = &job->inputs[1];
	size_t w = job->p->width, h = job->p->height;
	if (job->kind == REF_TRANSPOSE) {
		/* x is h columns wide and w rows tall; out[r][c] = x[c][r]. */
		if (i % w * h + i / w < x->count)
			copy_element(job->out, i, x, i % w * h + i / w);
		return;
	}
	size_t r = i / w, c = i % w;
	struct acc a;
	acc_reset(&a, x->type, COMBINE_SUM);
	if (job->kind == REF_MATMUL) {
		size_t inner = h ? x->count / h : 0;
		for (size_t k = 0; k < inner; k++)
			acc_add_at(&a, x, r * inner + k, b, k * w + c);
	} else if (job->kind == REF_STENCIL5) {
		acc_add_at(&a, x, i, NULL, 0);
		if (c > 0)
			acc_add_at(&a, x, i - 1, NULL, 0);
		if (c + 1 < w)
			acc_add_at(&a, x, i + 1, NULL, 0);
		if (r > 0)
			acc_add_at(&a, x, i - w, NULL, 0);
		if (r + 1 < h)
			acc_add_at(&a, x, i + w, NULL, 0);
	} else {
		size_t side = 0;
		while ((side + 1) * (side + 1) <= b->count)
			side++;
		long long half = (long long)side / 2;
		for (size_t j = 0; j < side; j++)
			for (size_t k = 0; k < side; k++) {
				long long y = (long long)r + (long long)j - half;
				long long z = (long long)c + (long long)k - half;
				if (y >= 0 && y < (long long)h && z >= 0 && z < (long long)w)
					acc_add_at(&a, x, (size_t)y * w + (size_t)z, b,
						   j * side + k);
			}
	}
	record(job->out, i, &a);
}

/* Unit u of a reference whose units are independent: the group, block or column u, or
 * output element u. */
static void compute_unit(const struct job *job, size_t u)
{
	const struct ref_input *x = &job->inputs[0];
	size_t group = job->p->group, n = job->n, count = job->count;
	struct ref_output *out = job->out;
	struct acc a;
	switch (job->kind) {
	case REF_SUM_PER_GROUP:
	case REF_MIN_PER_GROUP:
	case REF_MAX_PER_GROUP:
	case REF_DOT_PER_GROUP:
		acc_reset(&a, x->type, job->combine);
		if (u * group < n)
			acc_add_terms(&a, job->inputs, job->ninputs, u * group,
				      (u + 1) * group < n ? (u + 1) * group : n);
		record(out, u, &a);
		break;
	case REF_INCLUSIVE_SCAN_PER_BLOCK:
	case REF_EXCLUSIVE_SCAN_PER_BLOCK:
		acc_reset(&a, x->type, COMBINE_SUM);
		for (size_t i = u * group; i < (u + 1) * group && i < count; i++) {
			if (!job->inclusive)
				record(out, i, &a);
			if (i < n)
				acc_add_term(&a, job->inputs, 1, i);
			if (job->inclusive)
				record(out, i, &a);
		}
		break;
	case REF_SUM_PER_GROUP_BROADCAST:
		acc_reset(&a, x->type, COMBINE_SUM);
		for (size_t i = u * group; i < (u + 1) * group && i < n; i++)
			acc_add_term(&a, job->inputs, 1, i);
		for (size_t i = u * group; i < (u + 1) * group && i < count; i++)
			record(out, i, &a);
		break;
	case REF_INCLUSIVE_SCAN_COLUMNS:
		acc_reset(&a, x->type, COMBINE_SUM);
		for (size_t i = u; i < count; i += group) {
			if (i < n)
				acc_add_term(&a, job->inputs, 1, i);
			record(out, i, &a);
		}
		break;
	case REF_FILE:
		if (u < n)
			copy_element(out, u, x, u);
		break;
	case REF_ROTATE:
		if (n > 0)
			copy_element(out, u, x, turned(u, n, job->p->shift));
		break;
	case REF_ROTATE_PER_GROUP: {
		size_t src = u - u % group + turned(u, group, job->p->shift);
		if (src < n)
			copy_element(out, u, x, src);
		break;
	}
	case REF_TRANSPOSE:
	case REF_MATMUL:
	case REF_STENCIL5:
	case REF_CONVOLVE:
		matrix_element(job, u);
		break;
	default:
		break;
	}
}

static void compute_units(void *ctx, size_t piece)
{
	const struct job *job = ctx;
	size_t first = piece * job->units_per_piece;
	for (size_t u = first; u < first + job->units_per_piece && u < job->units; u++)
		compute_unit(job, u);
}

/* A whole reduction or scan, pass one: the reduction of piece `piece` of the terms. */
static void reduce_piece(void *ctx, size_t piece)
{
	const struct job *job = ctx;
	/* On the stack while it runs: neighbouring pieces' sums share cache lines. */
	struct acc a;
	acc_reset(&a, job->inputs[0].type, job->combine);
	size_t first = piece * PARALLEL_GRAIN;
	if (first < job->n)
		acc_add_terms(&a, job->inputs, job->ninputs, first,
			      first + PARALLEL_GRAIN < job->n ? first + PARALLEL_GRAIN : job->n);
	job->pieces[piece] = a;
}

/* A whole scan, pass three: piece `piece` of the outputs, from the reduction of every
 * term before it (job->pieces[piece], after pass two). */
static void scan_piece(void *ctx, size_t piece)
{
	const struct job *job = ctx;
	struct acc a = job->pieces[piece];
	size_t first = piece * PARALLEL_GRAIN;
	for (size_t i = first; i < first + PARALLEL_GRAIN && i < job->count; i++) {
		if (!job->inclusive)
			record(job->out, i, &a);
		if (i < job->n)
			acc_add_term(&a, job->inputs, 1, i);
		if (job->inclusive)
			record(job->out, i, &a);
	}
}

/* Sums, minima, maxima and dot products of the whole input, and whole scans: each piece
 * of the input is reduced on its own, the pieces' reductions are folded in order (so the
 * result does not depend on the number of threads), and a scan then runs each piece
 * again from the fold of those before it. */
static void compute_whole(struct job *job, bool scan)
{
	size_t total = scan && job->count > job->n ? job->count : job->n;
	size_t pieces = parallel_pieces(total);
	job->pieces = xcalloc(pieces, sizeof *job->pieces);
	parallel_for(pieces, reduce_piece, job);
	struct acc before;
	acc_reset(&before, job->inputs[0].type, job->combine);
	for (size_t p = 0; p < pieces; p++) {
		struct acc piece = job->pieces[p];
		job->pieces[p] = before;
		acc_merge(&before, &piece);
	}
	if (scan)
		parallel_for(pieces, scan_piece, job);
	else
		for (size_t i = 0; i < job->count; i++)
			record(job->out, i, &before);
	free(job->pieces);
	job->pieces = NULL;
}

/* Each output counts the inputs equal to its index. */
static void compute_histogram(const struct job *job)
{
	const struct ref_input *x = &job->inputs[0];
	for (size_t i = 0; i < job->n; i++) {
		double v = elem_get(x->type, x->data, i);
		if (v >= 0 && v < (double)job->count && v == floor(v)) {
			job->out->want[(size_t)v] += 1;
			job->out->want_bits[(size_t)v] += 1;
		}
	}
}

void ref_compute(enum ref_kind kind, const struct ref_input *inputs, const struct ref_params *p,
		 size_t count, struct ref_output *out)
{
	const struct ref_input *x = &inputs[0];
	struct job job = {
		.kind = kind,
		.inputs = inputs,
		.ninputs = ref_input_count(kind),
		.p = p,
		.n = x->count,
		.count = count,
		.out = out,
		.combine = kind == REF_MIN || kind == REF_MIN_PER_GROUP	  ? COMBINE_MIN
			   : kind == REF_MAX || kind == REF_MAX_PER_GROUP ? COMBINE_MAX
									  : COMBINE_SUM,
		.inclusive = kind == REF_INCLUSIVE_SCAN || kind == REF_INCLUSIVE_SCAN_PER_BLOCK,
	};
	if (job.ninputs == 2 && inputs[1].count < job.n)
		job.n = inputs[1].count;

	*out = (struct ref_output){ .type = x->type, .lanes = 1, .count = count };
	out->want = xcalloc_bulk(count ? count : 1, sizeof *out->want);
	/* Only integers are compared by their bits. */
	if (!elem_is_float(x->type) || kind == REF_HISTOGRAM)
		out->want_bits = xcalloc_bulk(count ? count : 1, sizeof *out->want_bits);
	if (elem_is_float(x->type)) {
		out->magnitude = xcalloc_bulk(count ? count : 1, sizeof *out->magnitude);
		out->terms = xcalloc_bulk(count ? count : 1, sizeof *out->terms);
	}

	size_t group = p->group;
	/* The terms one unit reads, to cut pieces of about PARALLEL_GRAIN terms. */
	size_t unit_terms = 1;
	switch (kind) {
	case REF_SUM:
	case REF_MIN:
	case REF_MAX:
	case REF_DOT:
		compute_whole(&job, false);
		return;
	case REF_INCLUSIVE_SCAN:
	case REF_EXCLUSIVE_SCAN:
		compute_whole(&job, true);
		return;
	case REF_HISTOGRAM:
		compute_histogram(&job);
		return;
	case REF_TARGETS:
	case REF_KERNEL:
		return; /* nothing to compute: the runner never asks */
	case REF_SUM_PER_GROUP:
	case REF_MIN_PER_GROUP:
	case REF_MAX_PER_GROUP:
	case REF_DOT_PER_GROUP:
		job.units = count;
		unit_terms = group;
		break;
	case REF_INCLUSIVE_SCAN_PER_BLOCK:
	case REF_EXCLUSIVE_SCAN_PER_BLOCK:
		if (group == 0) {
			compute_whole(&job, true); /* one block: the whole array */
			return;
		}
		/* fall through */
	case REF_SUM_PER_GROUP_BROADCAST:
		job.units = group ? (count + group - 1) / group : 0;
		unit_terms = group;
		break;
	case REF_INCLUSIVE_SCAN_COLUMNS:
		job.units = group < count ? group : count;
		unit_terms = group ? count / group : 0;
		break;
	case REF_ROTATE_PER_GROUP:
		job.units = group ? count : 0;
		break;
	case REF_TRANSPOSE:
	case REF_MATMUL:
	case REF_STENCIL5:
	case REF_CONVOLVE:
		job.units = count < p->width * p->height ? count : p->width * p->height;
		unit_terms = kind == REF_MATMUL && p->height ? x->count / p->height : 1;
		break;
	case REF_FILE:
	case REF_ROTATE:
		job.units = count;
		break;
	}
	if (unit_terms == 0)
		unit_terms = 1;
	job.units_per_piece = unit_terms >= PARALLEL_GRAIN ? 1 : PARALLEL_GRAIN / unit_terms;
	parallel_for((job.units + job.units_per_piece - 1) / job.units_per_piece, compute_units,
		     &job);
}

/* The scalars of lane `lane` of each element of in (every lane of it where `lane` is
 * ELEM_MAX_LANES: a scalar array of count * lanes), for references that see one lane. */
struct lane_copy {
	const struct ref_input *in;
	unsigned lane, stride;
	size_t size, count;
	char *data;
};

static void copy_lane_piece(void *ctx, size_t piece)
{
	const struct lane_copy *c = ctx;
	const struct ref_input *in = c->in;
	bool all = c->lane == ELEM_MAX_LANES;
	size_t first = piece * PARALLEL_GRAIN;
	for (size_t i = first; i < first + PARALLEL_GRAIN && i < c->count; i++) {
		size_t from =
			all ? i / in->lanes * c->stride + i % in->lanes : i * c->stride + c->lane;
		memcpy(c->data + i * c->size, (const char *)in->data + from * c->size, c->size);
	}
}

static struct ref_input lane_view(const struct ref_input *in, unsigned lane, void **owned)
{
	unsigned stride = elem_stride(in->lanes);
	bool all = lane == ELEM_MAX_LANES;
	size_t count = all ? in->count * in->lanes : in->count;
	*owned = NULL;
	/* Every lane of vectors without padding: the scalars are already in order. */
	if (all && stride == in->lanes)
		return (struct ref_input){
			.type = in->type, .lanes = 1, .data = in->data, .count = count
		};
	struct lane_copy c = { .in = in,
			       .lane = lane,
			       .stride = stride,
			       .size = elem_size(in->type),
			       .count = count };
	c.data = xcalloc(count ? count : 1, c.size);
	parallel_for(parallel_pieces(count), copy_lane_piece, &c);
	*owned = c.data;
	return (struct ref_input){ .type = in->type, .lanes = 1, .data = c.data, .count = count };
}

void ref_compute_lanes(enum ref_kind kind, const struct ref_input *inputs,
		       const struct ref_params *p, enum elem_type type, unsigned lanes,
		       size_t count, struct ref_output *out)
{
	int ninputs = ref_input_count(kind);
	if (lanes == 1 && inputs[0].lanes == 1) {
		ref_compute(kind, inputs, p, count, out);
		out->type = type; /* a histogram's counts, whatever it counted */
		return;
	}
	unsigned stride = elem_stride(lanes);
	size_t scalars = count * stride;
	*out = (struct ref_output){ .type = type, .lanes = lanes, .count = scalars };
	out->want = xcalloc_bulk(scalars ? scalars : 1, sizeof *out->want);
	if (!elem_is_float(type) || kind == REF_HISTOGRAM)
		out->want_bits = xcalloc_bulk(scalars ? scalars : 1, sizeof *out->want_bits);
	if (elem_is_float(type)) {
		out->magnitude = xcalloc_bulk(scalars ? scalars : 1, sizeof *out->magnitude);
		out->terms = xcalloc_bulk(scalars ? scalars : 1, sizeof *out->terms);
	}
	/* Every lane of an element at once into a scalar, or one lane into its lane. */
	bool flatten = lanes == 1 && inputs[0].lanes > 1;
	unsigned passes = flatten ? 1 : lanes;
	for (unsigned lane = 0; lane < passes; lane++) {
		struct ref_input views[2];
		void *owned[2] = { NULL, NULL };
		for (int i = 0; i < ninputs; i++)
			views[i] =
				lane_view(&inputs[i], flatten ? ELEM_MAX_LANES : lane, &owned[i]);
		struct ref_output one;
		struct ref_params lane_params = *p;
		if (flatten)
			lane_params.group *= inputs[0].lanes;
		ref_compute(kind, views, &lane_params, count, &one);
		for (size_t i = 0; i < count; i++) {
			size_t at = i * stride + lane;
			out->want[at] = one.want[i];
			if (out->want_bits && one.want_bits)
				out->want_bits[at] = kind == REF_HISTOGRAM
							     ? elem_wrap(type, one.want_bits[i])
							     : one.want_bits[i];
			if (out->magnitude && one.magnitude) {
				out->magnitude[at] = one.magnitude[i];
				out->terms[at] = one.terms[i];
			}
		}
		ref_output_free(&one);
		for (int i = 0; i < ninputs; i++)
			free(owned[i]);
	}
}

void ref_output_free(struct ref_output *out)
{
	free(out->want);
	free(out->want_bits);
	free(out->magnitude);
	free(out->terms);
	*out = (struct ref_output){ 0 };
}
