/* gen.c - input generators: fill, iota, seeded random data (xoshiro256**) and poison. */
#include "config.h"

#include "case/gen.h"

#include <math.h>
#include <string.h>

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

/* A whole number uniform in [lo, hi]; the range fits in 33 bits (32-bit element types),
 * so the multiply-shift below has negligible bias. */
static double uniform_int(struct rng *r, double lo, double hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1;
	uint64_t x = rng_next(r) >> 32;
	return lo + (double)((x * span) >> 32);
}

static void store(enum elem_type type, void *out, size_t i, double v)
{
	switch (type) {
	case ELEM_INT:
		((int32_t *)out)[i] = (int32_t)(int64_t)v;
		break;
	case ELEM_UINT:
		((uint32_t *)out)[i] = (uint32_t)(int64_t)v;
		break;
	case ELEM_FLOAT:
		((float *)out)[i] = (float)v;
		break;
	}
}

uint64_t gen_buffer_seed(uint64_t case_seed, const char *buffer_name)
{
	/* FNV-1a; rng_seed's splitmix64 spreads the bits. */
	uint64_t h = 0xcbf29ce484222325u;
	for (const char *p = buffer_name; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3u;
	return case_seed ^ h;
}

void gen_fill(enum elem_type type, const struct init_spec *init, void *out, size_t count)
{
	struct rng r;
	rng_seed(&r, init->seed);

	for (size_t i = 0; i < count; i++) {
		switch (init->kind) {
		case INIT_POISON: {
			uint32_t bits =
				type == ELEM_FLOAT ? GEN_POISON_FLOAT_BITS : GEN_POISON_BITS;
			memcpy((char *)out + i * 4, &bits, 4);
			break;
		}
		case INIT_FILL:
			store(type, out, i, init->lo);
			break;
		case INIT_IOTA:
			store(type, out, i, init->lo + (double)i);
			break;
		case INIT_RANDOM:
			if (type == ELEM_FLOAT) {
				/* 24 random bits: every value is a float, so rounding cannot reach
				 * hi. */
				double u = (double)(rng_next(&r) >> 40) * 0x1p-24;
				store(type, out, i, init->lo + (init->hi - init->lo) * u);
				break;
			}
			store(type, out, i, uniform_int(&r, init->lo, init->hi));
			break;
		case INIT_RANDOM_INT:
			store(type, out, i, uniform_int(&r, init->lo, init->hi));
			break;
		case INIT_FILE:
			/* plan_build refuses a count past the file's: this is a guard. */
			if (i < init->data.count)
				memcpy((char *)out + i * 4, (const char *)init->data.data + i * 4,
				       4);
			else
				store(type, out, i, 0);
			break;
		}
	}
}
