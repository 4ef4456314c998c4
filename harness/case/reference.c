/* reference.c - CPU references: sums, minima, maxima, dot products, scans, rotations. */
#include "config.h"

#include "case/reference.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	uint64_t bits;	  /* integer sum, min or max, in elem_get_bits's form */
	double sum, comp; /* float sum and its compensation */
	double extreme;	  /* float min or max */
	double magnitude; /* sum of |term| */
	size_t terms;
};

static void acc_reset(struct acc *a, enum elem_type type, enum combine combine)
{
	*a = (struct acc){ .type = type, .combine = combine };
	if (combine == COMBINE_MIN) {
		a->bits = elem_is_float(type) ? 0 : elem_int_max(type);
		a->extreme = INFINITY;
	} else if (combine == COMBINE_MAX) {
		a->bits = elem_is_float(type) ? 0 : elem_int_min(type);
		a->extreme = -INFINITY;
	}
}

/* Adds one term: x for float types, xbits (exact, in elem_get_bits's form) for integers. */
static void acc_add(struct acc *a, double x, uint64_t xbits)
{
	a->terms++;
	if (elem_is_float(a->type)) {
		a->magnitude += fabs(x);
		if (a->combine == COMBINE_SUM) {
			double t = a->sum + x;
			a->comp += fabs(a->sum) >= fabs(x) ? (a->sum - t) + x : (x - t) + a->sum;
			a->sum = t;
		} else if (a->combine == COMBINE_MIN) {
			a->extreme = x < a->extreme ? x : a->extreme;
		} else {
			a->extreme = x > a->extreme ? x : a->extreme;
		}
		return;
	}
	if (a->combine == COMBINE_SUM) {
		a->bits = elem_wrap(a->type, a->bits + xbits);
	} else if (elem_is_signed(a->type)) {
		int64_t cur = (int64_t)a->bits, v = (int64_t)xbits;
		if (a->combine == COMBINE_MIN ? v < cur : v > cur)
			a->bits = xbits;
	} else {
		if (a->combine == COMBINE_MIN ? xbits < a->bits : xbits > a->bits)
			a->bits = xbits;
	}
}

static double acc_value(const struct acc *a)
{
	if (elem_is_float(a->type))
		return a->combine == COMBINE_SUM ? a->sum + a->comp : a->extreme;
	return elem_is_signed(a->type) ? (double)(int64_t)a->bits : (double)a->bits;
}

static uint64_t bits_at(const struct ref_input *in, size_t i)
{
	return elem_is_float(in->type) ? 0 : elem_get_bits(in->type, in->data, i);
}

/* Adds term i of the inputs: x[i], or a[i] * b[i] for dot products. */
static void acc_add_term(struct acc *a, const struct ref_input *inputs, int ninputs, size_t i)
{
	if (ninputs == 1) {
		acc_add(a, elem_get(inputs[0].type, inputs[0].data, i), bits_at(&inputs[0], i));
		return;
	}
	/* A float product is exact in double; integer products wrap like the device's. */
	double x = elem_get(inputs[0].type, inputs[0].data, i) *
		   elem_get(inputs[1].type, inputs[1].data, i);
	acc_add(a, x, elem_wrap(a->type, bits_at(&inputs[0], i) * bits_at(&inputs[1], i)));
}

/* Element `from` of x, copied exactly as element i of the output. */
static void copy_element(struct ref_output *out, size_t i, const struct ref_input *x, size_t from)
{
	out->want[i] = elem_get(x->type, x->data, from);
	out->want_bits[i] = elem_get_bits(x->type, x->data, from);
}

static void record(struct ref_output *out, size_t i, const struct acc *a)
{
	out->want[i] = acc_value(a);
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

/* Adds x[i] (or a[i] * b[j] where b is given) to a, or nothing where i (or j) is past the
 * input: matrix references reach only what exists. */
static void acc_add_at(struct acc *a, const struct ref_input *x, size_t i,
		       const struct ref_input *b, size_t j)
{
	if (i >= x->count || (b && j >= b->count))
		return;
	if (b == NULL) {
		acc_add(a, elem_get(x->type, x->data, i), bits_at(x, i));
		return;
	}
	acc_add(a, elem_get(x->type, x->data, i) * elem_get(b->type, b->data, j),
		elem_wrap(a->type, bits_at(x, i) * bits_at(b, j)));
}

/* The matrix references: out is p->height x p->width, row-major. */
static void matrix_reference(enum ref_kind kind, const struct ref_input *inputs,
			     const struct ref_params *p, size_t count, struct ref_output *out)
{
	const struct ref_input *x = &inputs[0], *b = &inputs[1];
	size_t w = p->width, h = p->height;
	struct acc a;
	if (kind == REF_TRANSPOSE) {
		/* x is h columns wide and w rows tall; out[r][c] = x[c][r]. */
		for (size_t i = 0; i < count && i < w * h; i++)
			if (i % w * h + i / w < x->count)
				copy_element(out, i, x, i % w * h + i / w);
		return;
	}
	size_t inner = h ? x->count / h : 0;
	size_t side = 0;
	while (kind == REF_CONVOLVE && (side + 1) * (side + 1) <= b->count)
		side++;
	for (size_t i = 0; i < count && i < w * h; i++) {
		size_t r = i / w, c = i % w;
		acc_reset(&a, x->type, COMBINE_SUM);
		if (kind == REF_MATMUL) {
			for (size_t k = 0; k < inner; k++)
				acc_add_at(&a, x, r * inner + k, b, k * w + c);
		} else if (kind == REF_STENCIL5) {
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
			long long half = (long long)side / 2;
			for (size_t j = 0; j < side; j++)
				for (size_t k = 0; k < side; k++) {
					long long y = (long long)r + (long long)j - half;
					long long z = (long long)c + (long long)k - half;
					if (y >= 0 && y < (long long)h && z >= 0 &&
					    z < (long long)w)
						acc_add_at(&a, x, (size_t)y * w + (size_t)z, b,
							   j * side + k);
				}
		}
		record(out, i, &a);
	}
}

void ref_compute(enum ref_kind kind, const struct ref_input *inputs, const struct ref_params *p,
		 size_t count, struct ref_output *out)
{
	size_t group = p->group;
	long long shift = p->shift;
	const struct ref_input *x = &inputs[0];
	int ninputs = ref_input_count(kind);
	size_t n = x->count;
	if (ninputs == 2 && inputs[1].count < n)
		n = inputs[1].count;

	*out = (struct ref_output){ .type = x->type, .lanes = 1, .count = count };
	out->want = xcalloc(count, sizeof *out->want);
	out->want_bits = xcalloc(count, sizeof *out->want_bits);
	if (elem_is_float(x->type)) {
		out->magnitude = xcalloc(count, sizeof *out->magnitude);
		out->terms = xcalloc(count, sizeof *out->terms);
	}

	enum combine combine = kind == REF_MIN || kind == REF_MIN_PER_GROUP   ? COMBINE_MIN
			       : kind == REF_MAX || kind == REF_MAX_PER_GROUP ? COMBINE_MAX
									      : COMBINE_SUM;
	struct acc a;

	switch (kind) {
	case REF_SUM:
	case REF_MIN:
	case REF_MAX:
	case REF_DOT:
		acc_reset(&a, x->type, combine);
		for (size_t i = 0; i < n; i++)
			acc_add_term(&a, inputs, ninputs, i);
		for (size_t i = 0; i < count; i++)
			record(out, i, &a);
		break;
	case REF_SUM_PER_GROUP:
	case REF_MIN_PER_GROUP:
	case REF_MAX_PER_GROUP:
	case REF_DOT_PER_GROUP:
		for (size_t g = 0; g < count; g++) {
			acc_reset(&a, x->type, combine);
			for (size_t i = g * group; i < (g + 1) * group && i < n; i++)
				acc_add_term(&a, inputs, ninputs, i);
			record(out, g, &a);
		}
		break;
	case REF_INCLUSIVE_SCAN:
	case REF_EXCLUSIVE_SCAN:
	case REF_INCLUSIVE_SCAN_PER_BLOCK:
	case REF_EXCLUSIVE_SCAN_PER_BLOCK: {
		bool inclusive = kind == REF_INCLUSIVE_SCAN || kind == REF_INCLUSIVE_SCAN_PER_BLOCK;
		bool blocked = kind == REF_INCLUSIVE_SCAN_PER_BLOCK ||
			       kind == REF_EXCLUSIVE_SCAN_PER_BLOCK;
		acc_reset(&a, x->type, COMBINE_SUM);
		for (size_t i = 0; i < count; i++) {
			if (blocked && group > 0 && i % group == 0)
				acc_reset(&a, x->type, COMBINE_SUM);
			if (!inclusive)
				record(out, i, &a);
			if (i < n)
				acc_add_term(&a, inputs, 1, i);
			if (inclusive)
				record(out, i, &a);
		}
		break;
	}
	case REF_FILE:
		for (size_t i = 0; i < count && i < n; i++)
			copy_element(out, i, x, i);
		break;
	case REF_ROTATE:
		for (size_t i = 0; i < count && n > 0; i++)
			copy_element(out, i, x, turned(i, n, shift));
		break;
	case REF_ROTATE_PER_GROUP:
		for (size_t i = 0; i < count && group > 0; i++) {
			size_t src = i - i % group + turned(i, group, shift);
			if (src < n)
				copy_element(out, i, x, src);
		}
		break;
	case REF_SUM_PER_GROUP_BROADCAST:
		for (size_t base = 0; base < count && group > 0; base += group) {
			acc_reset(&a, x->type, COMBINE_SUM);
			for (size_t i = base; i < base + group && i < n; i++)
				acc_add_term(&a, inputs, 1, i);
			for (size_t i = base; i < base + group && i < count; i++)
				record(out, i, &a);
		}
		break;
	case REF_INCLUSIVE_SCAN_COLUMNS:
		for (size_t column = 0; column < group && column < count; column++) {
			acc_reset(&a, x->type, COMBINE_SUM);
			for (size_t i = column; i < count; i += group) {
				if (i < n)
					acc_add_term(&a, inputs, 1, i);
				record(out, i, &a);
			}
		}
		break;
	case REF_TRANSPOSE:
	case REF_MATMUL:
	case REF_STENCIL5:
	case REF_CONVOLVE:
		matrix_reference(kind, inputs, p, count, out);
		break;
	case REF_TARGETS:
	case REF_KERNEL:
		break; /* nothing to compute: the runner never asks */
	case REF_HISTOGRAM:
		for (size_t i = 0; i < n; i++) {
			double v = elem_get(x->type, x->data, i);
			if (v >= 0 && v < (double)count && v == floor(v)) {
				out->want[(size_t)v] += 1;
				out->want_bits[(size_t)v] += 1;
			}
		}
		break;
	}
}

/* The scalars of lane `lane` of each element of in (every lane of it where `lane` is
 * ELEM_MAX_LANES: a scalar array of count * lanes), for references that see one lane. */
static struct ref_input lane_view(const struct ref_input *in, unsigned lane)
{
	unsigned stride = elem_stride(in->lanes);
	size_t size = elem_size(in->type);
	bool all = lane == ELEM_MAX_LANES;
	size_t count = all ? in->count * in->lanes : in->count;
	char *data = xcalloc(count ? count : 1, size);
	for (size_t i = 0; i < count; i++) {
		size_t from = all ? i / in->lanes * stride + i % in->lanes : i * stride + lane;
		memcpy(data + i * size, (const char *)in->data + from * size, size);
	}
	return (struct ref_input){ .type = in->type, .lanes = 1, .data = data, .count = count };
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
	out->want = xcalloc(scalars ? scalars : 1, sizeof *out->want);
	out->want_bits = xcalloc(scalars ? scalars : 1, sizeof *out->want_bits);
	if (elem_is_float(type)) {
		out->magnitude = xcalloc(scalars ? scalars : 1, sizeof *out->magnitude);
		out->terms = xcalloc(scalars ? scalars : 1, sizeof *out->terms);
	}
	/* Every lane of an element at once into a scalar, or one lane into its lane. */
	bool flatten = lanes == 1 && inputs[0].lanes > 1;
	unsigned passes = flatten ? 1 : lanes;
	for (unsigned lane = 0; lane < passes; lane++) {
		struct ref_input views[2];
		for (int i = 0; i < ninputs; i++)
			views[i] = lane_view(&inputs[i], flatten ? ELEM_MAX_LANES : lane);
		struct ref_output one;
		struct ref_params lane_params = *p;
		if (flatten)
			lane_params.group *= inputs[0].lanes;
		ref_compute(kind, views, &lane_params, count, &one);
		for (size_t i = 0; i < count; i++) {
			size_t at = i * stride + lane;
			out->want[at] = one.want[i];
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
			free((void *)views[i].data);
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
