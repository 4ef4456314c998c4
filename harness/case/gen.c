/* gen.c - input generators: fill, iota, seeded random data (xoshiro256**) and poison. */
#include "config.h"

#include "case/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** by Blackman and Vigna: fast, and its stream is fixed by the seed alone. */
static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* A whole number uniform in [lo, hi], a range of at most 2^64 values; the multiply-shift
 * below has negligible bias. */
static double uniform_int(struct rng *r, double lo, double hi)
{
	double width = hi - lo + 1;
	uint64_t x = rng_next(r);
	if (width >= 0x1p64)
		return lo + (double)x;
	uint64_t span = (uint64_t)width;
	return lo + (double)(uint64_t)(((unsigned __int128)x * span) >> 64);
}

/* The poison of an element type: a quiet NaN whose payload spells DEAD for float types,
 * the bytes of 0xDEADBEEF for integers. */
uint64_t gen_poison_bits(enum elem_type type)
{
	switch (type) {
	case ELEM_HALF:
		return GEN_POISON_HALF_BITS;
	case ELEM_FLOAT:
		return GEN_POISON_FLOAT_BITS;
	case ELEM_DOUBLE:
		return GEN_POISON_DOUBLE_BITS;
	default:
		return GEN_POISON_BITS;
	}
}

void gen_fill_record(const struct record *record, const struct init_spec *init, void *out,
		     size_t count)
{
	memset(out, 0, count * record->size);
	if (init->kind == INIT_FILE) {
		size_t bytes = count * record->size;
		memcpy(out, init->data.data, bytes < init->data.count ? bytes : init->data.count);
		return;
	}
	for (size_t f = 0; f < record->nfields; f++) {
		const struct record_field *field = &record->fields[f];
		size_t bytes = record_field_size(field);
		size_t scalars = count * elem_stride(field->lanes);
		char *column = xmalloc(scalars ? scalars * elem_size(field->type) : 1);
		struct init_spec spec = *init;
		spec.seed = gen_buffer_seed(init->seed, field->name);
		gen_fill(field->type, &spec, column, scalars);
		for (size_t i = 0; i < count; i++)
			memcpy((char *)out + i * record->size + field->offset, column + i * bytes,
			       bytes);
		free(column);
	}
}

uint64_t gen_buffer_seed(uint64_t case_seed, const char *buffer_name)
{
	/* rng_seed's splitmix64 spreads the bits. */
	return case_seed ^ fnv1a(FNV1A_START, buffer_name, strlen(buffer_name));
}

/* Random values of the common types written straight into the buffer, the same values
 * gen_fill's general loop writes through elem_set: catalogue inputs run to 2^28
 * elements. Returns false, having written nothing, for any other type or range. */
static bool fill_random_fast(enum elem_type type, const struct init_spec *init, struct rng *r,
			     void *out, size_t count)
{
	bool whole = init->kind == INIT_RANDOM_INT ||
		     (init->kind == INIT_RANDOM && elem_precision(type) == 0);
	if (type == ELEM_FLOAT && init->kind == INIT_RANDOM) {
		float *f = out;
		double width = init->hi - init->lo;
		/* 24 random bits scaled by 2^-24, exactly as ldexp would. */
		for (size_t i = 0; i < count; i++)
			f[i] = (float)(init->lo + width * ((double)(rng_next(r) >> 40) * 0x1p-24));
		return true;
	}
	if (type == ELEM_INT && whole && init->lo >= INT32_MIN && init->hi <= INT32_MAX) {
		int32_t *v = out;
		for (size_t i = 0; i < count; i++)
			v[i] = (int32_t)uniform_int(r, init->lo, init->hi);
		return true;
	}
	if (type == ELEM_UINT && whole && init->lo >= 0 && init->hi <= UINT32_MAX) {
		uint32_t *v = out;
		for (size_t i = 0; i < count; i++)
			v[i] = (uint32_t)uniform_int(r, init->lo, init->hi);
		return true;
	}
	return false;
}

void gen_fill(enum elem_type type, const struct init_spec *init, void *out, size_t count)
{
	struct rng r;
	rng_seed(&r, init->seed);
	int precision = elem_precision(type);
	if (fill_random_fast(type, init, &r, out, count))
		return;

	for (size_t i = 0; i < count; i++) {
		switch (init->kind) {
		case INIT_POISON:
		case INIT_NONE: /* never written to the device: the host copy only fills a gap */
			elem_set_bits(type, out, i, gen_poison_bits(type));
			break;
		case INIT_FILL:
			elem_set(type, out, i, init->lo);
			break;
		case INIT_IOTA:
			elem_set(type, out, i, init->lo + (double)i);
			break;
		case INIT_RANDOM:
			if (precision > 0) {
				/* As many random bits as the type's significand: every value is
				 * one of the type's, so rounding cannot reach hi. */
				double u = ldexp((double)(rng_next(&r) >> (64 - precision)),
						 -precision);
				elem_set(type, out, i, init->lo + (init->hi - init->lo) * u);
				break;
			}
			elem_set(type, out, i, uniform_int(&r, init->lo, init->hi));
			break;
		case INIT_RANDOM_INT:
			elem_set(type, out, i, uniform_int(&r, init->lo, init->hi));
			break;
		case INIT_FILE:
			/* plan_build refuses a count past the file's: this is a guard. */
			if (i < init->data.count)
				memcpy((char *)out + i * elem_size(type),
				       (const char *)init->data.data + i * elem_size(type),
				       elem_size(type));
			else
				elem_set(type, out, i, 0);
			break;
		}
	}
}
