/* shape.c - a size or work-group shape of one to three dimensions. */
#include "config.h"

#include "case/shape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

struct shape shape_1d(long long v)
{
	return (struct shape){ .dims = 1, .d = { v, 1, 1 } };
}

struct shape shape_of_sizes(const size_t *v, unsigned dims)
{
	struct shape s = { .dims = dims, .d = { 1, 1, 1 } };
	for (unsigned i = 0; i < dims && i < SHAPE_MAX_DIMS; i++)
		s.d[i] = (long long)v[i];
	return s;
}

char *shape_format(const struct shape *s, char text[SHAPE_TEXT_MAX])
{
	size_t used = 0;
	text[0] = '\0';
	for (unsigned i = 0; i < s->dims && i < SHAPE_MAX_DIMS; i++)
		used += (size_t)snprintf(text + used, SHAPE_TEXT_MAX - used, "%s%lld", i ? "x" : "",
					 s->d[i]);
	return text;
}

char *shape_run_text(const struct shape *n, const struct shape *l, const char *sep,
		     char text[SHAPE_RUN_TEXT_MAX])
{
	char ntext[SHAPE_TEXT_MAX], ltext[SHAPE_TEXT_MAX];
	snprintf(text, SHAPE_RUN_TEXT_MAX, "N=%s%sL=%s", shape_format(n, ntext), sep,
		 shape_format(l, ltext));
	return text;
}

int shape_parse(const char *text, struct shape *out)
{
	struct shape s = { .dims = 0, .d = { 1, 1, 1 } };
	const char *p = text;
	for (;;) {
		if (s.dims == SHAPE_MAX_DIMS || *p < '0' || *p > '9')
			return -1;
		char *end;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (errno != 0 || v <= 0 || v > SHAPE_DIM_MAX)
			return -1;
		s.d[s.dims++] = v;
		if (*end == '\0')
			break;
		if (*end != 'x')
			return -1;
		p = end + 1;
	}
	*out = s;
	return 0;
}

int shape_cmp(const struct shape *a, const struct shape *b)
{
	if (a->dims != b->dims)
		return a->dims < b->dims ? -1 : 1;
	for (unsigned i = 0; i < a->dims; i++)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

bool shape_equal(const struct shape *a, const struct shape *b)
{
	return shape_cmp(a, b) == 0;
}

long long shape_volume(const struct shape *s)
{
	long long v = 1;
	for (unsigned i = 0; i < s->dims; i++)
		if (__builtin_mul_overflow(v, s->d[i], &v))
			return -1;
	return v;
}

bool shape_is_ragged(const struct shape *n, const struct shape *l)
{
	for (unsigned d = 0; d < n->dims && d < l->dims; d++)
		if (l->d[d] > 0 && n->d[d] % l->d[d] != 0)
			return true;
	return false;
}

bool shape_shrink_for_simulation(const struct shape *n, const struct shape *l, struct shape *out)
{
	*out = *n;
	long long items = shape_volume(n);
	if (items >= 0 && items <= SHAPE_SIMULATED_ITEMS)
		return false;
	return shape_few_groups(n, l, out);
}

bool shape_few_groups(const struct shape *n, const struct shape *l, struct shape *out)
{
	*out = *n;
	bool shrank = false;
	for (unsigned d = 0; d < n->dims; d++) {
		long long group = d < l->dims && l->d[d] > 0 ? l->d[d] : 1;
		long long keep = group * (d == 0 ? 3 : 2) + n->d[d] % group;
		if (n->d[d] > keep) {
			out->d[d] = keep;
			shrank = true;
		}
	}
	return shrank;
}
