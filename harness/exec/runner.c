/* runner.c - runs one case on one opened target. */
#include "config.h"

#include "exec/runner.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/compare.h"
#include "case/gen.h"
#include "case/plan.h"
#include "case/reference.h"

/* The sizes and work-group sizes a case runs at on a backend. */
/* The shapes of a case's runs: sizes x locals, or where paired sizes[i] with locals[i]. */
struct shapes {
	const struct shape *sizes;
	size_t nsizes;
	const struct shape *locals;
	size_t nlocals;
	bool paired;
};

static struct shapes shapes_of(const struct backend *b, const struct test_case *tc,
			       const struct run_options *opt)
{
	struct shapes sh = { tc->sizes, tc->nsizes, tc->locals, tc->nlocals, false };
	if (tc->npairs && !opt->sizes && !opt->locals)
		return (struct shapes){ tc->pair_sizes, tc->npairs, tc->pair_locals, tc->npairs,
					true };
	if (backend_can(b, CAN_ONLY_SMALL_SIZES)) {
		sh.sizes = tc->sim_sizes;
		sh.nsizes = tc->nsim_sizes;
		if (tc->nsim_locals) {
			sh.locals = tc->sim_locals;
			sh.nlocals = tc->nsim_locals;
		}
	}
	if (opt->sizes) {
		sh.sizes = opt->sizes;
		sh.nsizes = opt->nsizes;
	}
	if (opt->locals) {
		sh.locals = opt->locals;
		sh.nlocals = opt->nlocals;
	}
	return sh;
}

size_t runner_run_count(const struct backend *b, const struct test_case *tc,
			const struct run_options *opt)
{
	struct shapes sh = shapes_of(b, tc, opt);
	return 1 + (sh.paired ? sh.nsizes : sh.nsizes * sh.nlocals);
}

void runner_run_shape(const struct backend *b, const struct test_case *tc,
		      const struct run_options *opt, size_t run, struct shape *n, struct shape *l)
{
	struct shapes sh = shapes_of(b, tc, opt);
	*n = sh.paired ? sh.sizes[run - 1] : sh.sizes[(run - 1) / sh.nlocals];
	*l = sh.paired ? sh.locals[run - 1] : sh.locals[(run - 1) % sh.nlocals];
}

void runner_result_init(struct result *r, const struct backend *b, const struct target *t,
			const struct test_case *tc, const struct shape *n, const struct shape *l)
{
	*r = (struct result){
		.case_name = xstrdup(tc->name),
		.case_path = xstrdup(tc->path),
		.target = xstrdup(t->name),
		.backend = xstrdup(b->name),
		.n = n ? *n : (struct shape){ 0 },
		.l = l ? *l : (struct shape){ 0 },
		.racy = tc->racy,
		.simulated = backend_can(b, CAN_FIND),
		.outputs_repeat = backend_can(b, CAN_REPEAT),
		.verdict = VERDICT_PASS,
	};
}

/* A check's reference as last computed, with what it was computed from. */
struct kept_reference {
	bool valid;
	unsigned generation[2]; /* of the input buffers */
	size_t group;		/* 0 unless the reference is per group */
	long long shift;
	size_t count;
	/* A matrix's shape: 16 x 32 and 32 x 16 hold as many elements, and transpose apart. */
	size_t width, height;
	struct ref_output out;
};

/* What a case keeps across its runs. A buffer is generated again only when its count
 * changes, so inputs are made once per size N, not once per work-group size; a reference
 * is computed again only when its inputs or its group, shift, count or shape change, so one
 * that does not depend on L (a whole-array sum, a scan) is computed once per N. */
struct inputs {
	void **data;
	size_t *count;
	unsigned *generation;	     /* bumped each time a buffer is generated */
	struct kept_reference *refs; /* one a check */
};

/* A skip naming the first buffer the target cannot allocate whole, so that a size too
 * large is the device's limit, not the host's memory running out in the worker. */
static int check_buffer_sizes(const struct test_case *tc, const struct plan *plan,
			      const struct target *t, struct result *r)
{
	for (size_t b = 0; b < tc->nbuffers; b++) {
		size_t bytes = plan_buffer_bytes(tc, plan, b);
		if (t->limits.max_alloc == 0 ||
		    bytes <= t->limits.max_alloc) /* 0: the target did not say */
			continue;
		char have[32];
		result_set_diag(r, VERDICT_SKIP, NULL, 0, 0,
				"buffer %s needs %zu elements of %zu bytes (%s%llu bytes); %s "
				"allocates at most %llu bytes (%s) at once",
				tc->buffers[b].name, plan->buffer_counts[b],
				elem_size(tc->buffers[b].type) * elem_stride(tc->buffers[b].lanes),
				bytes == SIZE_MAX ? "more than " : "", (unsigned long long)bytes,
				t->name, (unsigned long long)t->limits.max_alloc,
				human_bytes(t->limits.max_alloc, have, sizeof have));
		return -1;
	}
	return 0;
}

/* Returns how many buffers it generated, or -1 with a skip in r naming the buffer that
 * this host could not hold. */
static int refresh_inputs(const struct test_case *tc, const struct plan *plan, struct inputs *in,
			  struct result *r)
{
	int generated = 0;
	for (size_t b = 0; b < tc->nbuffers; b++) {
		size_t count = plan->buffer_counts[b];
		if (in->data[b] && in->count[b] == count)
			continue;
		free(in->data[b]);
		in->count[b] = 0;
		size_t bytes = plan_buffer_bytes(tc, plan, b);
		in->data[b] = bytes == SIZE_MAX ? NULL : malloc(bytes ? bytes : 1);
		if (in->data[b] == NULL) {
			result_set_diag(r, VERDICT_SKIP, NULL, 0, 0,
					"buffer %s needs %zu bytes, which this host cannot "
					"allocate",
					tc->buffers[b].name, bytes);
			return -1;
		}
		in->count[b] = count;
		if (tc->buffers[b].record)
			gen_fill_record(tc->buffers[b].record, &tc->buffers[b].init, in->data[b],
					count);
		else
			gen_fill(tc->buffers[b].type, &tc->buffers[b].init, in->data[b],
				 plan_buffer_scalars(tc, plan, b));
		in->generation[b]++;
		generated++;
	}
	return generated;
}

static void describe_mismatch(struct result *r, const struct test_case *tc, const struct plan *plan,
			      const struct check *ck, const struct cmp_report *rep,
			      const struct ref_output *want_out, const void *final)
{
	const struct buffer_decl *buf = &tc->buffers[ck->buffer];
	const char *name = buf->name;
	enum elem_type type = want_out->type;
	char got[64], want[64], how[128];
	if (elem_is_float(type)) {
		/* Digits enough to tell any two values of the type apart. */
		int digits = type == ELEM_DOUBLE ? 17 : type == ELEM_FLOAT ? 9 : 5;
		snprintf(got, sizeof got, "%.*g", digits, rep->got);
		snprintf(want, sizeof want, "%.*g", digits, rep->want);
	} else if (elem_is_signed(type)) {
		snprintf(got, sizeof got, "%lld",
			 (long long)elem_get_bits(type, final, rep->first));
		snprintf(want, sizeof want, "%lld", (long long)want_out->want_bits[rep->first]);
	} else {
		snprintf(got, sizeof got, "%llu",
			 (unsigned long long)elem_get_bits(type, final, rep->first));
		snprintf(want, sizeof want, "%llu",
			 (unsigned long long)want_out->want_bits[rep->first]);
	}
	if (elem_is_float(type) && ck->tolerance != TOL_EXACT)
		snprintf(how, sizeof how, " (bound %.3g, |error|/bound %.3g)", rep->bound,
			 rep->bound > 0 ? fabs(rep->got - rep->want) / rep->bound : INFINITY);
	else if (elem_is_float(type))
		snprintf(how, sizeof how, " (compared exactly)");
	else
		how[0] = '\0';
	/* A vector's mismatch names its element and lane, as OpenCL C writes it: out[5].s2. */
	unsigned stride = elem_stride(buf->lanes);
	size_t element = rep->first / stride;
	char lane[16] = "";
	if (buf->lanes > 1)
		snprintf(lane, sizeof lane, ".s%x", (unsigned)(rep->first % stride));
	/* A matrix reference's output is height rows of width, and an output of one
	 * element a work-item of an N-D launch is that launch's grid, the first extent the
	 * fastest: the element's place in it says more than the flat index. */
	char place[80] = "";
	const struct plan_check *pc = &plan->checks[ck - tc->checks];
	struct shape grid_shape = plan->n;
	if (pc->width > 0 && pc->height > 0)
		grid_shape = (struct shape){ .dims = 2,
					     .d = { (long long)pc->width, (long long)pc->height } };
	long long volume = shape_volume(&grid_shape);
	if (grid_shape.dims > 1 && volume > 0 &&
	    plan->buffer_counts[ck->buffer] == (size_t)volume) {
		size_t rest = element;
		int used = snprintf(place, sizeof place, " (at ");
		for (unsigned d = 0; d < grid_shape.dims; d++) {
			used += snprintf(place + used, sizeof place - (size_t)used, "%s%zu",
					 d ? ", " : "", rest % (size_t)grid_shape.d[d]);
			rest /= (size_t)grid_shape.d[d];
		}
		char grid[SHAPE_TEXT_MAX];
		snprintf(place + used, sizeof place - (size_t)used, " of %s)",
			 shape_format(&grid_shape, grid));
	}
	/* An output left poisoned was never written, which says more than its value; only
	 * where the poison is no value a kernel writes by chance, as a char's 0xEF is. */
	size_t unwritten = 0;
	bool first_unwritten = false;
	if (buf->init.kind == INIT_POISON && buf->record == NULL && elem_size(type) >= 4) {
		unsigned char scratch[8];
		elem_set_bits(type, scratch, 0, gen_poison_bits(type));
		uint64_t poison = elem_get_bits(type, scratch, 0);
		for (size_t i = 0; i < rep->compared; i++)
			if (!elem_is_padding(buf->lanes, i) &&
			    elem_get_bits(type, final, i) == poison)
				unwritten++;
		first_unwritten = elem_get_bits(type, final, rep->first) == poison;
	}
	if (first_unwritten)
		snprintf(got, sizeof got, "nothing: it was never written");
	char never[96] = "";
	if (unwritten)
		snprintf(never, sizeof never, ", %zu of them never written", unwritten);
	char *source = ck->ref->kind == REF_FILE ? xasprintf("as %s holds", ck->expected_file)
		       : ck->ref->inputs == 2
			       ? xasprintf("%s of %s and %s", ck->ref->name,
					   tc->buffers[ck->of[0]].name, tc->buffers[ck->of[1]].name)
			       : xasprintf("%s of %s", ck->ref->name, tc->buffers[ck->of[0]].name);
	result_set_diag(r, VERDICT_WRONG_OUTPUT, tc->path, ck->pos.line, ck->pos.col,
			"%s[%zu]%s%s: got %s, want %s%s; %zu of %zu %s differ%s (%s)", name, element,
			lane, place, got, want, first_unwritten ? "" : how, rep->mismatches, rep->compared,
			buf->lanes > 1 ? "lanes" : "elements", never, source);
	free(source);
	result_set_mismatch(r, name, element, rep->got, rep->want, rep->bound, rep->mismatches,
			    rep->compared);
	r->unwritten = unwritten;
}

/* Returns check c's reference for this plan, computing it only when what it depends on
 * has changed since it was last computed; counts the computations in r. */
static const struct ref_output *reference_for(const struct test_case *tc, const struct plan *plan,
					      size_t c, struct inputs *in, struct result *r)
{
	const struct check *ck = &tc->checks[c];
	const struct plan_check *pc = &plan->checks[c];
	struct kept_reference key = {
		.valid = true,
		.group = ck->ref->per_group ? pc->group : 0,
		.shift = pc->shift,
		.count = pc->count,
		.width = pc->width,
		.height = pc->height,
	};
	/* A data file's values never change: generation 0 always matches. */
	for (int i = 0; i < ck->ref->inputs && ck->ref->kind != REF_FILE; i++)
		key.generation[i] = in->generation[ck->of[i]];
	struct kept_reference *kept = &in->refs[c];
	if (kept->valid && kept->group == key.group && kept->shift == key.shift &&
	    kept->count == key.count && kept->width == key.width && kept->height == key.height &&
	    kept->generation[0] == key.generation[0] && kept->generation[1] == key.generation[1])
		return &kept->out;

	const struct buffer_decl *out = &tc->buffers[ck->buffer];
	struct ref_input inputs[2];
	for (int i = 0; i < ck->ref->inputs; i++) {
		const struct buffer_decl *of = &tc->buffers[ck->of[i]];
		inputs[i] =
			ck->ref->kind == REF_FILE
				? (struct ref_input){ ck->expected.type, out->lanes,
						      ck->expected.data,
						      ck->expected.count / elem_stride(out->lanes) }
				: (struct ref_input){ of->type, of->lanes, in->data[ck->of[i]],
						      in->count[ck->of[i]] };
	}
	uint64_t t0 = clock_now_ns();
	ref_output_free(&kept->out);
	struct ref_params params = {
		.group = pc->group, .shift = pc->shift, .width = pc->width, .height = pc->height
	};
	ref_compute_lanes(ck->ref->kind, inputs, &params, out->type, out->lanes, pc->count,
			  &key.out);
	*kept = key;
	r->reference_ns += clock_now_ns() - t0;
	r->references++;
	return &kept->out;
}

/* Compares every output with its check's reference. Returns whether some check had
 * nothing to compare with at this shape (at:). */
static bool check_outputs(const struct test_case *tc, const struct plan *plan, struct inputs *in,
			  void *const *final, struct result *r)
{
	bool unchecked = false;
	for (size_t c = 0; c < tc->nchecks; c++) {
		const struct check *ck = &tc->checks[c];
		const struct plan_check *pc = &plan->checks[c];
		if (tc->reference_run || check_compared_later(ck))
			continue; /* compared with other runs' outputs once those have run */
		if (pc->elsewhere) {
			unchecked = true;
			continue;
		}
		const struct ref_output *want = reference_for(tc, plan, c, in, r);
		uint64_t t0 = clock_now_ns();
		struct cmp_report rep;
		cmp_buffer(want, final[ck->buffer], want->count, ck->tolerance, pc->depth, &rep);
		r->compare_ns += clock_now_ns() - t0;
		if (rep.worst_ratio > r->drift)
			r->drift = rep.worst_ratio;
		if (!rep.ok && r->verdict == VERDICT_PASS)
			describe_mismatch(r, tc, plan, ck, &rep, want, final[ck->buffer]);
	}
	return unchecked;
}

/* Whether buffer b is an output whose check compares it with other runs' copies. */
static bool compared_across(const struct test_case *tc, size_t b)
{
	for (size_t c = 0; c < tc->nchecks; c++)
		if (tc->checks[c].buffer == b && check_compared_later(&tc->checks[c]))
			return true;
	return false;
}

/* Keeps a buffer of structs as one buffer a field, "name.field", so that it is compared
 * field by field and lane by lane, its padding never. */
static void keep_fields(const struct buffer_decl *buf, size_t count, const void *data,
			struct result *r)
{
	const struct record *rec = buf->record;
	for (size_t f = 0; f < rec->nfields; f++) {
		const struct record_field *field = &rec->fields[f];
		size_t bytes = record_field_size(field);
		r->kept = xreallocarray(r->kept, r->nkept + 1, sizeof *r->kept);
		struct kept_buffer *k = &r->kept[r->nkept++];
		*k = (struct kept_buffer){ .name = xasprintf("%s.%s", buf->name, field->name),
					   .type = field->type,
					   .lanes = field->lanes,
					   .count = count * elem_stride(field->lanes) };
		k->data = xmalloc(count * bytes + 1);
		for (size_t i = 0; i < count; i++)
			memcpy((char *)k->data + i * bytes,
			       (const char *)data + i * rec->size + field->offset, bytes);
	}
}

/* Hands the result the output buffers themselves, for comparing targets with each other:
 * all of them where `all`, else those compared with other runs' copies. */
static void keep_outputs(const struct test_case *tc, const struct plan *plan, void **final,
			 bool all, struct result *r)
{
	for (size_t b = 0; b < tc->nbuffers; b++) {
		if (!tc->buffers[b].output || !(all || compared_across(tc, b)))
			continue;
		if (tc->buffers[b].record) {
			keep_fields(&tc->buffers[b], plan->buffer_counts[b], final[b], r);
			continue;
		}
		r->kept = xreallocarray(r->kept, r->nkept + 1, sizeof *r->kept);
		struct kept_buffer *k = &r->kept[r->nkept++];
		*k = (struct kept_buffer){ .name = xstrdup(tc->buffers[b].name),
					   .type = tc->buffers[b].type,
					   .lanes = tc->buffers[b].lanes,
					   .count = plan_buffer_scalars(tc, plan, b) };
		size_t bytes = k->count * elem_size(k->type);
		k->data = xmalloc(bytes ? bytes : 1);
		memcpy(k->data, final[b], bytes);
	}
}

static int compare_ns(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The run's device time, and the statistics of its rounds after the warm-up ones. */
static void time_rounds(struct result *r, uint64_t *round_ns, unsigned rounds, unsigned warmup)
{
	for (unsigned i = 0; i < rounds; i++)
		r->kernel_ns += round_ns[i];
	if (warmup >= rounds)
		warmup = rounds ? rounds - 1 : 0;
	unsigned timed = rounds - warmup;
	if (timed == 0)
		return;
	uint64_t *kept = round_ns + warmup;
	qsort(kept, timed, sizeof *kept, compare_ns);
	r->rounds_timed = timed;
	r->round_min_ns = kept[0];
	r->round_max_ns = kept[timed - 1];
	r->round_median_ns =
		timed % 2 ? kept[timed / 2] : (kept[timed / 2 - 1] + kept[timed / 2]) / 2;
}

static bool has_output(const struct test_case *tc)
{
	for (size_t k = 0; k < tc->nbuffers; k++)
		if (tc->buffers[k].output)
			return true;
	return false;
}

/* Returns the backend's execute status: 0, -1, or BACKEND_LOST. */
static int run_one(const struct backend *b, struct backend_session *session, const struct target *t,
		   const struct test_case *tc, const struct run_options *opt, const struct shape *n,
		   const struct shape *l, struct inputs *in, struct result *r)
{
	struct plan plan;
	struct diag_list diags = { 0 };
	if (plan_build(tc, n, l, t->limits.compute_units, &plan, &diags) < 0) {
		const struct diag *d = &diags.items[0];
		result_set_diag(r, VERDICT_CASE_ERROR, d->file, d->line, d->col, "%s", d->message);
		diag_list_free(&diags);
		return -1;
	}
	int generated = -1;
	if (check_buffer_sizes(tc, &plan, t, r) == 0)
		generated = refresh_inputs(tc, &plan, in, r);
	void **final = xcalloc(tc->nbuffers, sizeof *final);
	for (size_t k = 0; k < tc->nbuffers && generated >= 0; k++) {
		if (!tc->buffers[k].output)
			continue;
		size_t bytes = plan_buffer_bytes(tc, &plan, k);
		final[k] = malloc(bytes ? bytes : 1);
		if (final[k] == NULL) {
			result_set_diag(r, VERDICT_SKIP, NULL, 0, 0,
					"buffer %s needs %zu bytes for its output, which this "
					"host cannot allocate",
					tc->buffers[k].name, bytes);
			generated = -1;
		}
	}
	if (generated < 0) {
		r->output = VERDICT_SKIP;
		result_settle(r);
		for (size_t k = 0; k < tc->nbuffers; k++)
			free(final[k]);
		free(final);
		plan_free(&plan);
		return 0;
	}
	r->generated = (unsigned)generated;

	unsigned repeat = tc->launches ? tc->launches : opt->repeat;
	r->repeat = repeat;
	uint64_t *round_ns = xcalloc(repeat ? repeat : 1, sizeof *round_ns);
	uint64_t run_start = clock_now_ns();
	int status =
		b->execute(session, tc, &plan, in->data, final, repeat, round_ns, opt->settled, r);
	r->run_ns = clock_now_ns() - run_start;
	if (status == 0)
		time_rounds(r, round_ns, repeat, opt->warmup);
	free(round_ns);
	bool unchecked = status == 0 && check_outputs(tc, &plan, in, final, r);
	if (status == 0)
		keep_outputs(tc, &plan, final, opt->keep_outputs, r);
	const struct suppression_list *lists[] = { opt->suppressions, &tc->suppress };
	finding_list_suppress(&r->findings, lists, 2);
	result_settle(r);
	/* An output with no values of this shape to compare with is not a pass. */
	if (unchecked && r->output == VERDICT_PASS)
		r->output = VERDICT_SKIP;
	/* A case with no output is judged by a simulator's findings alone: on a device,
	 * which finds nothing, its run showed only that the kernel ends. */
	if (status == 0 && !has_output(tc) && !backend_can(b, CAN_FIND) && r->verdict == VERDICT_PASS) {
		result_set_diag(r, VERDICT_SKIP, tc->path, 0, 0,
				"nothing to compare on %s: the case has no output, so only a "
				"simulator's findings judge it (the kernel ran to its end); mark a "
				"buffer `output: true` and give it a check to compare its values",
				t->name);
		r->output = VERDICT_SKIP;
	}

	for (size_t k = 0; k < tc->nbuffers; k++)
		free(final[k]);
	free(final);
	plan_free(&plan);
	return status;
}

/* Whether type (or, with `extension`, a kernel that enables it) needs what the target
 * lacks: double needs fp64; half arithmetic cl_khr_fp16, though a half buffer read and
 * written through vload_half and vstore_half needs nothing. */
static bool lacks(const struct target *t, enum elem_type type)
{
	return type == ELEM_DOUBLE && !t->limits.fp64;
}

/* Whether the source needs `extension`: it enables it with #pragma OPENCL EXTENSION
 * outside every #if, #ifdef and #ifndef (CLBlast's kernels enable cl_khr_fp16 only
 * #if defined(cl_khr_fp16), and run without it), not merely naming it in a comment. */
static bool enables(const char *source, const char *extension)
{
	int depth = 0;
	for (const char *line = source; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *p = line + strspn(line, " \t");
		if (*p == '#') {
			p += 1 + strspn(p + 1, " \t");
			if (strncmp(p, "if", 2) == 0)
				depth++;
			else if (strncmp(p, "endif", 5) == 0 && depth > 0)
				depth--;
			else if (depth == 0 && strncmp(p, "pragma", 6) == 0) {
				char *text = xstrndup(line, len);
				const char *ext = strstr(text, "EXTENSION");
				bool found = ext && strstr(ext, extension) != NULL;
				free(text);
				if (found)
					return true;
			}
		}
		line += len + (end != NULL);
	}
	return false;
}

/* Why the case cannot run on t: a type or an extension the device does not have. Returns
 * the reason (the caller frees it), or NULL. */
static char *missing_feature(const struct test_case *tc, const struct target *t)
{
	for (size_t b = 0; b < tc->nbuffers; b++)
		if (lacks(t, tc->buffers[b].type))
			return xasprintf("buffer %s is double, and %s has no double precision "
					 "(cl_khr_fp64)",
					 tc->buffers[b].name, t->name);
	for (size_t s = 0; s < tc->nsteps; s++) {
		const struct step *st = &tc->steps[s];
		for (size_t a = 0; a < st->nargs; a++)
			if (st->args[a].kind != ARG_BUFFER && lacks(t, st->args[a].type))
				return xasprintf("argument %zu of %s is double, and %s has no "
						 "double precision (cl_khr_fp64)",
						 a + 1, st->kernel_name, t->name);
		size_t len;
		char *source = st->kernel_path ? read_file(st->kernel_path, &len) : NULL;
		char *why = NULL;
		if (source && enables(source, "cl_khr_fp64") && !t->limits.fp64)
			why = xasprintf("%s enables cl_khr_fp64, which %s does not have",
					st->kernel_file, t->name);
		else if (source && enables(source, "cl_khr_fp16") && !t->limits.fp16)
			why = xasprintf("%s enables cl_khr_fp16 (half arithmetic), which %s does "
					"not have",
					st->kernel_file, t->name);
		free(source);
		if (why)
			return why;
	}
	return NULL;
}

void runner_settle(const struct run_options *opt, const struct result *r)
{
	for (size_t i = 0; opt->settled && i < r->findings.count; i++)
		finding_list_settle(opt->settled, &r->findings.items[i]);
}

int runner_run_case(const struct backend *b, struct backend_session *session,
		    const struct target *t, const struct test_case *tc, size_t case_index,
		    const struct run_options *opt, size_t first, const struct result_sink *sink)
{
	sink->begin(sink->ctx, case_index, 0);
	struct result failure;
	runner_result_init(&failure, b, t, tc, NULL, NULL);
	if (runner_run_count(b, tc, opt) == 1) {
		/* Only a simulator's list can be empty: sim_sizes is optional. */
		result_set_diag(&failure, VERDICT_SKIP, tc->path, tc->sizes_pos.line,
				tc->sizes_pos.col,
				"the case has no sim_sizes for %s to run it at: add small sizes, "
				"e.g. sim_sizes: [256] (simulation is 10^3-10^4 times slower "
				"than a device)",
				b->name);
		failure.output = VERDICT_SKIP;
		sink->emit(sink->ctx, &failure);
		result_free(&failure);
		return 0;
	}
	char *missing = missing_feature(tc, t);
	if (missing) {
		result_set_diag(&failure, VERDICT_SKIP, tc->path, 0, 0, "%s", missing);
		failure.output = VERDICT_SKIP;
		free(missing);
		sink->emit(sink->ctx, &failure);
		result_free(&failure);
		return 0;
	}
	unsigned cached = 0;
	int built = b->build(session, tc, &cached, &failure);
	if (built < 0) {
		result_settle(&failure);
		sink->emit(sink->ctx, &failure);
		result_free(&failure);
		return 0;
	}
	result_free(&failure);

	struct inputs in = {
		.data = xcalloc(tc->nbuffers, sizeof(void *)),
		.count = xcalloc(tc->nbuffers, sizeof(size_t)),
		.generation = xcalloc(tc->nbuffers, sizeof(unsigned)),
		.refs = xcalloc(tc->nchecks, sizeof(struct kept_reference)),
	};
	size_t runs = runner_run_count(b, tc, opt);
	int status = 0;
	for (size_t run = first > 1 ? first : 1; run < runs && status != BACKEND_LOST; run++) {
		struct shape n, l;
		runner_run_shape(b, tc, opt, run, &n, &l);
		sink->begin(sink->ctx, case_index, run);
		struct result r;
		runner_result_init(&r, b, t, tc, &n, &l);
		/* The builds are counted with the case's first result. */
		r.builds = (unsigned)built;
		r.cached_builds = cached;
		built = 0;
		cached = 0;
		status = run_one(b, session, t, tc, opt, &n, &l, &in, &r);
		runner_settle(opt, &r);
		sink->emit(sink->ctx, &r);
		result_free(&r);
		if (status == 0 && b->spent && b->spent(session))
			status = BACKEND_LOST;
	}
	for (size_t k = 0; k < tc->nbuffers; k++)
		free(in.data[k]);
	for (size_t c = 0; c < tc->nchecks; c++)
		ref_output_free(&in.refs[c].out);
	free(in.data);
	free(in.count);
	free(in.generation);
	free(in.refs);
	return status == BACKEND_LOST ? BACKEND_LOST : 0;
}
