/* testcase.c - the case model's lifetime: freeing what case_load built. */
#include "config.h"

#include <stdlib.h>

#include "case/testcase.h"

size_t buffer_element_bytes(const struct buffer_decl *buf)
{
	return buf->record ? buf->record->size : elem_size(buf->type) * elem_stride(buf->lanes);
}

bool check_compared_later(const struct check *ck)
{
	return ck->ref->kind == REF_TARGETS || ck->ref->kind == REF_KERNEL;
}

void case_free_step(struct step *st)
{
	if (st == NULL)
		return;
	free(st->kernel_file);
	free(st->kernel_path);
	free(st->kernel_name);
	for (int d = 0; d < SHAPE_MAX_DIMS; d++) {
		expr_free(st->global[d].expr);
		expr_free(st->local[d].expr);
		expr_free(st->offset[d].expr);
	}
	expr_free(st->repeat.expr);
	for (size_t a = 0; a < st->nargs; a++) {
		struct arg *arg = &st->args[a];
		expr_free(arg->count.expr);
		scalar_value_free(&arg->value);
		for (size_t f = 0; arg->field_values && f < arg->record->nfields; f++)
			scalar_value_free(&arg->field_values[f]);
		free(arg->field_values);
		record_free(arg->record);
	}
	free(st->args);
}

void case_drop_checks(struct test_case *tc)
{
	for (size_t c = 0; c < tc->nchecks; c++) {
		struct check *ck = &tc->checks[c];
		expr_free(ck->group.expr);
		expr_free(ck->shift.expr);
		expr_free(ck->count.expr);
		expr_free(ck->serial.expr);
		expr_free(ck->partials.expr);
		expr_free(ck->width.expr);
		expr_free(ck->height.expr);
		case_free_step(ck->ref_step);
		free(ck->ref_step);
		free(ck->expected_file);
		data_file_free(&ck->expected);
	}
	free(tc->checks);
	tc->checks = NULL;
	tc->nchecks = 0;
}

void case_free(struct test_case *tc)
{
	if (tc == NULL)
		return;
	for (size_t s = 0; s < tc->nsteps; s++)
		case_free_step(&tc->steps[s]);
	for (size_t b = 0; b < tc->nbuffers; b++) {
		free(tc->buffers[b].name);
		record_free(tc->buffers[b].record);
		expr_free(tc->buffers[b].count.expr);
		free(tc->buffers[b].init.file);
		data_file_free(&tc->buffers[b].init.data);
	}
	case_drop_checks(tc);
	expr_free(tc->bytes.expr);
	suppression_list_free(&tc->suppress);
	free(tc->steps);
	free(tc->buffers);
	free(tc->sizes);
	free(tc->sim_sizes);
	free(tc->locals);
	free(tc->sim_locals);
	free(tc->pair_sizes);
	free(tc->pair_locals);
	free(tc->path);
	free(tc->name);
	free(tc->about);
	free(tc->options);
	free(tc);
}

void scalar_value_free(struct scalar_value *v)
{
	for (unsigned i = 0; v->terms && i < v->count; i++)
		expr_free(v->terms[i].expr.expr);
	free(v->terms);
	*v = (struct scalar_value){ 0 };
}

struct scalar_value scalar_value_copy(const struct scalar_value *v)
{
	struct scalar_value copy = { .count = v->count };
	if (v->terms == NULL)
		return (struct scalar_value){ 0 };
	copy.terms = xcalloc(v->count, sizeof *copy.terms);
	for (unsigned i = 0; i < v->count; i++) {
		copy.terms[i].number = v->terms[i].number;
		copy.terms[i].expr = pexpr_copy(&v->terms[i].expr);
	}
	return copy;
}

/* The dimensions tc's sizes (N, M, K) or work-group shapes (L, LY, LZ) have: those of its
 * own lists, else of its first launch's global size. */
static unsigned case_dims(const struct test_case *tc, bool local)
{
	const struct shape *own = local ? tc->locals : tc->sizes;
	size_t count = local ? tc->nlocals : tc->nsizes;
	if (count > 0 && own[0].dims > 0)
		return own[0].dims;
	return tc->nsteps > 0 ? tc->steps[0].global_dims : 1;
}

char *case_shape_mismatch(const struct test_case *tc, bool local, const struct shape *given,
			  const char *where, enum shape_spelling spelling)
{
	unsigned dims = case_dims(tc, local);
	if (given->dims == dims || given->dims == 0)
		return NULL;
	static const char *const size_names[] = { "N", "M", "K" };
	static const char *const local_names[] = { "L", "LY", "LZ" };
	struct strbuf names = { 0 }, fixed = { 0 };
	char text[SHAPE_TEXT_MAX];
	for (unsigned d = 0; d < dims && d < SHAPE_MAX_DIMS; d++) {
		strbuf_printf(&names, "%s%s", d ? " x " : "", local ? local_names[d] : size_names[d]);
		/* The written extent kept where there is one, the first repeated after it. */
		long long v = given->d[d < given->dims ? d : 0];
		if (spelling == SHAPE_AS_OPTION)
			strbuf_printf(&fixed, "%s%lld", d ? "x" : "", v);
		else
			strbuf_printf(&fixed, "%s%lld", d ? ", " : "[", v);
	}
	if (spelling == SHAPE_AS_YAML)
		strbuf_puts(&fixed, "]");
	char *message = xasprintf(
		"%s %s has %u dimension%s, but %s launches %u-D %s (%s): write %s as %s%s%s",
		where, shape_format(given, text), given->dims, given->dims == 1 ? "" : "s",
		tc->path, dims, local ? "work-groups" : "work", names.data, local ? "each shape" : "each size",
		spelling == SHAPE_AS_OPTION ? where : "", spelling == SHAPE_AS_OPTION ? " " : "",
		fixed.data);
	strbuf_free(&names);
	strbuf_free(&fixed);
	return message;
}
