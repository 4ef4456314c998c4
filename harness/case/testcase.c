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
