/* plan.c - resolves a case at one N and L: evaluates every expression, checks the results. */
#include "config.h"

#include "case/plan.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"

struct resolver {
	const struct test_case *tc;
	struct expr_env env;
	struct diag_list *diags;
	bool failed;
	struct shape l;		     /* the run's work-group shape */
	char at[SHAPE_RUN_TEXT_MAX]; /* "N=1024x768, L=16x16", for messages */
};

/* Evaluates `pe`; on failure reports at the failing operator with the N and L in force. */
static long long eval(struct resolver *r, const struct pexpr *pe, const char *what, long long min)
{
	long long v = 0;
	struct expr_error err;
	if (expr_eval(pe->expr, &r->env, &v, &err) < 0) {
		diag_add(r->diags, DIAG_ERROR, r->tc->path, pe->pos.line, pe->pos.col + err.offset,
			 "%s '%s': %s (at %s)", what, expr_text(pe->expr), err.message, r->at);
		r->failed = true;
		return min;
	}
	if (v < min) {
		diag_add(r->diags, DIAG_ERROR, r->tc->path, pe->pos.line, pe->pos.col,
			 "%s '%s' is %lld at %s; it must be %s", what, expr_text(pe->expr), v,
			 r->at, min > 0 ? "positive" : "zero or more");
		r->failed = true;
		return min;
	}
	return v;
}

/* A scalar's value at this launch, lane by lane. */
static void eval_value(struct resolver *r, const struct scalar_value *v, const char *what,
		       struct plan_value *out)
{
	out->count = v->count < ELEM_MAX_LANES ? v->count : ELEM_MAX_LANES;
	for (unsigned i = 0; i < out->count; i++) {
		const struct lane_term *t = &v->terms[i];
		struct lane_number *n = &out->lane[i];
		n->fractional = t->expr.expr == NULL;
		if (n->fractional)
			n->number = t->number;
		else
			n->whole = eval(r, &t->expr, what, -__LONG_LONG_MAX__);
	}
}

/* Where the work-group shape of step `st` comes from, for messages. */
static struct src_pos local_pos(const struct resolver *r, const struct step *st)
{
	return st->local_dims ? st->local_pos : r->tc->local_pos;
}

/* The launch's NDRange: as many work-group sizes and offsets as global sizes, each global
 * size a multiple of its work-group size unless the case says non_uniform. Returns
 * whether the last work-group of some dimension is smaller. */
static bool plan_ndrange(struct resolver *r, const struct step *st, struct plan_launch *launch)
{
	unsigned local_dims = st->local_dims;
	if (local_dims == 0) {
		local_dims = r->l.dims;
		if (local_dims != st->global_dims) {
			char text[SHAPE_TEXT_MAX];
			struct src_pos pos = local_pos(r, st);
			diag_add(r->diags, DIAG_ERROR, r->tc->path, pos.line, pos.col,
				 "global has %u dimension%s but the work-group shape L=%s has %u: "
				 "give work-group shapes of %u, like %s",
				 st->global_dims, st->global_dims == 1 ? "" : "s",
				 shape_format(&r->l, text), local_dims, st->global_dims,
				 st->global_dims == 1	? "local: [64]"
				 : st->global_dims == 2 ? "local: [[16, 16]]"
							: "local: [[8, 8, 4]]");
			r->failed = true;
			return false;
		}
	} else if (local_dims != st->global_dims) {
		diag_add(r->diags, DIAG_ERROR, r->tc->path, st->local_pos.line, st->local_pos.col,
			 "global has %u dimension%s but the step's local size has %u: give one "
			 "work-group size a dimension of global",
			 st->global_dims, st->global_dims == 1 ? "" : "s", local_dims);
		r->failed = true;
		return false;
	}
	if (st->offset_dims && st->offset_dims != st->global_dims) {
		diag_add(r->diags, DIAG_ERROR, r->tc->path, st->offset_pos.line, st->offset_pos.col,
			 "global has %u dimension%s but offset has %u: give one offset a "
			 "dimension of global",
			 st->global_dims, st->global_dims == 1 ? "" : "s", st->offset_dims);
		r->failed = true;
		return false;
	}
	launch->dims = st->global_dims;
	bool ragged = false;
	for (unsigned d = 0; d < launch->dims && !r->failed; d++) {
		launch->global[d] = (size_t)eval(r, &st->global[d], "global size", 1);
		launch->local[d] = st->local_dims ? (size_t)eval(r, &st->local[d], "local size", 1)
						  : (size_t)r->env.local[d];
		launch->offset[d] =
			st->offset_dims ? (size_t)eval(r, &st->offset[d], "offset", 0) : 0;
		if (r->failed || launch->global[d] % launch->local[d] == 0)
			continue;
		if (r->tc->non_uniform) {
			ragged = true;
			continue;
		}
		const struct pexpr *g = &st->global[d];
		char dim[32] = "";
		if (launch->dims > 1)
			snprintf(dim, sizeof dim, " in dimension %u", d);
		diag_add(r->diags, DIAG_ERROR, r->tc->path, g->pos.line, g->pos.col,
			 "global size '%s' is %zu%s at %s: not a multiple of the work-group "
			 "size %zu; round it up, e.g. ceildiv(%s, %s) * %s, and guard the "
			 "kernel's tail (or, for devices that launch a smaller last "
			 "work-group, say non_uniform: true)",
			 expr_text(g->expr), launch->global[d], dim, r->at, launch->local[d],
			 d == 0	  ? "N"
			 : d == 1 ? "M"
				  : "K",
			 d == 0	  ? "L"
			 : d == 1 ? "LY"
				  : "LZ",
			 d == 0	  ? "L"
			 : d == 1 ? "LY"
				  : "LZ");
		r->failed = true;
	}
	return ragged;
}

static void plan_launch(struct resolver *r, struct plan *plan, size_t s, long long iteration)
{
	const struct step *st = &r->tc->steps[s];
	r->env.i = iteration;
	struct plan_launch *launch = &plan->launches[plan->nlaunches++];
	launch->step = s;
	launch->iteration = iteration;
	plan->non_uniform |= plan_ndrange(r, st, launch);
	launch->args = xcalloc(st->nargs, sizeof *launch->args);
	launch->nargs = st->nargs;
	for (size_t a = 0; a < st->nargs; a++) {
		const struct arg *arg = &st->args[a];
		struct plan_arg *pa = &launch->args[a];
		pa->kind = arg->kind;
		pa->type = arg->type;
		pa->lanes = arg->lanes;
		pa->record = arg->record;
		if (arg->kind == ARG_BUFFER)
			pa->buffer = arg->buffer;
		else if (arg->kind == ARG_LOCAL)
			pa->local_bytes =
				(size_t)eval(r, &arg->count, "local buffer count", 1) *
				(arg->record ? arg->record->size
					     : elem_size(arg->type) * elem_stride(arg->lanes));
		else if (arg->record) {
			pa->fields = xcalloc(arg->record->nfields, sizeof *pa->fields);
			for (size_t f = 0; f < arg->record->nfields; f++)
				eval_value(r, &arg->field_values[f], "field value", &pa->fields[f]);
		} else
			eval_value(r, &arg->value, "scalar value", &pa->value);
	}
}

/* The largest |x| a buffer's init can produce with `count` elements, or -1 when the
 * values need not be whole numbers. */
static double whole_bound(const struct buffer_decl *buf, size_t count)
{
	const struct init_spec *init = &buf->init;
	if (buf->record && init->kind == INIT_FILE)
		return -1; /* bytes, not values */
	switch (init->kind) {
	case INIT_FILL:
		return fabs(init->lo);
	case INIT_IOTA:
		return fmax(fabs(init->lo), fabs(init->lo + (double)count - 1));
	case INIT_RANDOM_INT:
		return fmax(fabs(init->lo), fabs(init->hi));
	case INIT_RANDOM:
		return elem_is_float(buf->type) ? -1 : fmax(fabs(init->lo), fabs(init->hi));
	case INIT_FILE: {
		/* A file's values count as whole numbers only where every one is. */
		double largest = 0;
		for (size_t i = 0; i < count * elem_stride(buf->lanes) && i < init->data.count;
		     i++) {
			double x = elem_get(buf->type, init->data.data, i);
			if (x != floor(x) || isinf(x))
				return -1;
			largest = fmax(largest, fabs(x));
		}
		return largest;
	}
	case INIT_POISON:
	case INIT_NONE:
		break;
	}
	return -1;
}

/* A matrix reference's width and height (N and M unless the check gives them), checked
 * against the sizes of the buffers it reads and writes. */
static void plan_matrix(struct resolver *r, const struct check *ck, struct plan_check *pc,
			const struct plan *plan)
{
	const struct test_case *tc = r->tc;
	pc->width =
		ck->width.expr ? (size_t)eval(r, &ck->width, "width", 1) : (size_t)r->env.size[0];
	pc->height = ck->height.expr ? (size_t)eval(r, &ck->height, "height", 1)
				     : (size_t)r->env.size[1];
	if (r->failed)
		return;
	size_t cells = pc->width * pc->height;
	size_t first = plan->buffer_counts[ck->of[0]];
	size_t second = ck->ref->inputs == 2 ? plan->buffer_counts[ck->of[1]] : 0;
	const char *why = NULL;
	char *detail = NULL;
	if (plan->buffer_counts[ck->buffer] < cells)
		detail = xasprintf("output '%s' holds %zu elements, fewer than %zu x %zu",
				   tc->buffers[ck->buffer].name, plan->buffer_counts[ck->buffer],
				   pc->height, pc->width);
	else if (ck->ref->kind != REF_MATMUL && ck->ref->kind != REF_CONVOLVE && first < cells)
		detail = xasprintf("'%s' holds %zu elements, fewer than %zu x %zu",
				   tc->buffers[ck->of[0]].name, first, pc->height, pc->width);
	else if (ck->ref->kind == REF_MATMUL &&
		 (first % pc->height != 0 || second != first / pc->height * pc->width))
		detail = xasprintf("'%s' (%zu elements) and '%s' (%zu) are not %zu x k and k x %zu "
				   "matrices",
				   tc->buffers[ck->of[0]].name, first, tc->buffers[ck->of[1]].name,
				   second, pc->height, pc->width);
	else if (ck->ref->kind == REF_CONVOLVE) {
		size_t side = 0;
		while ((side + 1) * (side + 1) <= second)
			side++;
		if (side * side != second || side % 2 == 0)
			why = "the filter must be a square of odd side, like 3 x 3 = 9 elements";
		else if (first < cells)
			detail = xasprintf("'%s' holds %zu elements, fewer than %zu x %zu",
					   tc->buffers[ck->of[0]].name, first, pc->height,
					   pc->width);
	}
	if (why == NULL && detail == NULL)
		return;
	diag_add(r->diags, DIAG_ERROR, tc->path, ck->reference_pos.line, ck->reference_pos.col,
		 "%s of a %zu x %zu matrix at %s: %s", ck->ref->name, pc->height, pc->width, r->at,
		 why ? why : detail);
	free(detail);
	r->failed = true;
}

/* The inputs one output element adds: a per-group reference's group (a column's height
 * for column scans), the whole input otherwise. A sweep that grows N keeps a per-group
 * sum exact, since its terms do not grow with N. */
static size_t terms_per_output(const struct check *ck, const struct plan_check *pc, size_t count)
{
	if (!ck->ref->per_group || pc->group == 0)
		return count;
	if (ck->ref->kind == REF_INCLUSIVE_SCAN_COLUMNS)
		return (count + pc->group - 1) / pc->group;
	return pc->group < count ? pc->group : count;
}

/* DESIGN.md's second class: a float sum compares bit for bit only when every partial
 * sum is exact in any order, that is whole-number inputs with n * max|x| < 2^p, p the
 * type's precision (24 for float; 11 for half, 53 for double), n the terms of one
 * output. */
static void check_exact_sums(struct resolver *r, const struct check *ck,
			     const struct plan_check *pc, const struct plan *plan)
{
	const struct test_case *tc = r->tc;
	enum elem_type type = tc->buffers[ck->buffer].type;
	if (ck->tolerance != TOL_EXACT || !ck->ref->sums || !elem_is_float(type))
		return;
	double largest = 1;
	size_t terms = 0;
	for (int i = 0; i < ck->ref->inputs; i++) {
		const struct buffer_decl *in = &tc->buffers[ck->of[i]];
		size_t count = plan->buffer_counts[ck->of[i]];
		double bound = whole_bound(in, count);
		if (bound < 0) {
			diag_add(r->diags, DIAG_ERROR, tc->path, ck->tolerance_pos.line,
				 ck->tolerance_pos.col,
				 "tolerance: exact on a %s %s needs whole-number inputs (init: "
				 "random_int, fill or iota), and '%s' does not have them; "
				 "use tolerance: reduction",
				 elem_type_name(type), ck->ref->name, in->name);
			r->failed = true;
			return;
		}
		largest *= bound;
		/* A scalar output of vectors adds every lane. */
		terms = terms_per_output(ck, pc, count) *
			(tc->buffers[ck->buffer].lanes == 1 ? in->lanes : 1);
	}
	int precision = elem_precision(type);
	if ((double)terms * largest >= ldexp(1, precision)) {
		diag_add(r->diags, DIAG_ERROR, tc->path, ck->tolerance_pos.line,
			 ck->tolerance_pos.col,
			 "tolerance: exact on a %s %s needs n * max|x| < 2^%d so every partial "
			 "sum is exact, but at %s it is %zu * %g; narrow the inputs' range",
			 elem_type_name(type), ck->ref->name, precision, r->at, terms, largest);
		r->failed = true;
	}
}

int plan_build(const struct test_case *tc, const struct shape *n, const struct shape *l,
	       long long cu, struct plan *out, struct diag_list *diags)
{
	struct resolver r = { .tc = tc, .env = { .cu = cu, .i = 0 }, .diags = diags, .l = *l };
	for (unsigned d = 0; d < SHAPE_MAX_DIMS; d++) {
		r.env.size[d] = d < n->dims ? n->d[d] : 1;
		r.env.local[d] = d < l->dims ? l->d[d] : 1;
	}
	shape_run_text(n, l, ", ", r.at);
	struct plan *plan = out;
	*plan = (struct plan){ .n = *n, .l = *l, .cu = cu };

	if (tc->bytes.expr)
		plan->bytes = eval(&r, &tc->bytes, "bytes", 1);
	plan->buffer_counts = xcalloc(tc->nbuffers, sizeof *plan->buffer_counts);
	for (size_t b = 0; b < tc->nbuffers; b++) {
		const struct buffer_decl *buf = &tc->buffers[b];
		/* 0 is a buffer with no elements, passed as NULL; less is a mistake. */
		plan->buffer_counts[b] = (size_t)eval(&r, &buf->count, "buffer count", 0);
		size_t in_file = buf->record ? buf->init.data.count / buf->record->size
					     : buf->init.data.count / elem_stride(buf->lanes);
		if (!r.failed && buf->init.kind == INIT_FILE && plan->buffer_counts[b] > in_file) {
			diag_add(diags, DIAG_ERROR, tc->path, buf->init.pos.line, buf->init.pos.col,
				 "buffer '%s' holds %zu elements at %s, but %s holds "
				 "%zu (shape %s): give a file at least as large, or smaller sizes",
				 buf->name, plan->buffer_counts[b], r.at, buf->init.file, in_file,
				 buf->init.data.shape);
			r.failed = true;
		}
	}

	size_t capacity = 0;
	long long *repeats = xcalloc(tc->nsteps, sizeof *repeats);
	for (size_t s = 0; s < tc->nsteps; s++) {
		const struct pexpr *repeat = &tc->steps[s].repeat;
		repeats[s] = repeat->expr ? eval(&r, repeat, "repeat", 0) : 1;
		if (repeats[s] > PLAN_MAX_LAUNCHES - (long long)capacity) {
			diag_add(diags, DIAG_ERROR, tc->path, repeat->pos.line, repeat->pos.col,
				 "repeat '%s' is %lld at %s, but a case launches at "
				 "most %d kernels at one shape",
				 repeat->expr ? expr_text(repeat->expr) : "1", repeats[s], r.at,
				 PLAN_MAX_LAUNCHES);
			r.failed = true;
			repeats[s] = 0;
		}
		capacity += (size_t)repeats[s];
	}
	plan->launches = xcalloc(capacity, sizeof *plan->launches);
	for (size_t s = 0; s < tc->nsteps && !r.failed; s++)
		for (long long i = 0; i < repeats[s] && !r.failed; i++)
			plan_launch(&r, plan, s, i);
	free(repeats);
	r.env.i = 0;

	plan->checks = xcalloc(tc->nchecks, sizeof *plan->checks);
	for (size_t c = 0; c < tc->nchecks && !r.failed; c++) {
		const struct check *ck = &tc->checks[c];
		struct plan_check *pc = &plan->checks[c];
		size_t available = plan->buffer_counts[ck->buffer];
		pc->group = ck->group.expr ? (size_t)eval(&r, &ck->group, "group", 1)
					   : (size_t)r.env.local[0];
		pc->shift = ck->shift.expr ? eval(&r, &ck->shift, "shift", -__LONG_LONG_MAX__) : 0;
		if (ck->ref->matrix)
			plan_matrix(&r, ck, pc, plan);
		pc->count = ck->count.expr ? (size_t)eval(&r, &ck->count, "count", 1) : available;
		/* Exactly as many: the output at one size is no prefix of another's in
		 * general (a reduction's is not), so one file fits one size. */
		size_t expected = ck->expected.count / elem_stride(tc->buffers[ck->buffer].lanes);
		pc->elsewhere = ck->has_at &&
				(!shape_equal(&ck->at_n, n) || !shape_equal(&ck->at_l, l));
		if (!r.failed && ck->ref->kind == REF_FILE && pc->count != expected &&
		    !pc->elsewhere) {
			diag_add(diags, DIAG_ERROR, tc->path, ck->reference_pos.line,
				 ck->reference_pos.col,
				 "check of '%s' compares %zu elements at %s, but %s "
				 "holds %zu (shape %s): a file of expected values fits one size; "
				 "give the case that size alone, or a count",
				 tc->buffers[ck->buffer].name, pc->count, r.at, ck->expected_file,
				 expected, ck->expected.shape);
			r.failed = true;
		}
		if (!r.failed && pc->count > available) {
			diag_add(diags, DIAG_ERROR, tc->path, ck->count.pos.line, ck->count.pos.col,
				 "count '%s' is %zu at %s, but buffer '%s' holds %zu elements",
				 expr_text(ck->count.expr), pc->count, r.at,
				 tc->buffers[ck->buffer].name, available);
			r.failed = true;
		}
		/* An empty buffer, passed as NULL, gives a computed reference (those before
		 * REF_FILE) nothing to work from. */
		for (int i = 0; !r.failed && ck->ref->kind < REF_FILE && i < ck->ref->inputs; i++)
			if (plan->buffer_counts[ck->of[i]] == 0) {
				diag_add(diags, DIAG_ERROR, tc->path, ck->reference_pos.line,
					 ck->reference_pos.col,
					 "%s of '%s' at %s: '%s' has no elements, so there is "
					 "nothing to compute it from",
					 ck->ref->name, tc->buffers[ck->buffer].name, r.at,
					 tc->buffers[ck->of[i]].name);
				r.failed = true;
			}
		if (ck->tolerance == TOL_REDUCTION) {
			long long serial = ck->serial.expr ? eval(&r, &ck->serial, "serial", 0) : 1;
			long long partials =
				ck->partials.expr    ? eval(&r, &ck->partials, "partials", 1)
				: ck->ref->per_group ? (long long)pc->group
						     : (long long)plan->buffer_counts[ck->of[0]];
			/* A float dot product's terms are rounded products: one rounding more. */
			bool products = ck->ref->inputs == 2;
			pc->depth = serial + expr_ceil_log2(partials) + products;
		}
		if (!r.failed)
			check_exact_sums(&r, ck, pc, plan);
	}

	if (r.failed) {
		plan_free(plan);
		return -1;
	}
	return 0;
}

size_t plan_buffer_scalars(const struct test_case *tc, const struct plan *plan, size_t b)
{
	return plan->buffer_counts[b] * elem_stride(tc->buffers[b].lanes);
}

size_t plan_buffer_bytes(const struct test_case *tc, const struct plan *plan, size_t b)
{
	size_t bytes;
	if (__builtin_mul_overflow(plan->buffer_counts[b], buffer_element_bytes(&tc->buffers[b]),
				   &bytes))
		return SIZE_MAX;
	return bytes;
}

void plan_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->nlaunches; i++) {
		for (size_t a = 0; plan->launches[i].args && a < plan->launches[i].nargs; a++)
			free(plan->launches[i].args[a].fields);
		free(plan->launches[i].args);
	}
	free(plan->launches);
	free(plan->buffer_counts);
	free(plan->checks);
	*plan = (struct plan){ 0 };
}
