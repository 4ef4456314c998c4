/* elem.c - OpenCL C's scalar and vector element types, as a case's buffers hold them. */
#include "config.h"

#include "case/elem.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	size_t size;
	bool is_float;
	bool is_signed;
	int precision;
} types[] = {
	[ELEM_CHAR] = { "char", 1, false, true, 0 },
	[ELEM_UCHAR] = { "uchar", 1, false, false, 0 },
	[ELEM_SHORT] = { "short", 2, false, true, 0 },
	[ELEM_USHORT] = { "ushort", 2, false, false, 0 },
	[ELEM_INT] = { "int", 4, false, true, 0 },
	[ELEM_UINT] = { "uint", 4, false, false, 0 },
	[ELEM_LONG] = { "long", 8, false, true, 0 },
	[ELEM_ULONG] = { "ulong", 8, false, false, 0 },
	[ELEM_HALF] = { "half", 2, true, true, 11 },
	[ELEM_FLOAT] = { "float", 4, true, true, 24 },
	[ELEM_DOUBLE] = { "double", 8, true, true, 53 },
};

static const unsigned vector_lanes[] = { 2, 3, 4, 8, 16 };

const char *elem_type_name(enum elem_type type)
{
	return types[type].name;
}

char *elem_type_text(enum elem_type type, unsigned lanes, char text[ELEM_NAME_MAX])
{
	if (lanes > 1)
		snprintf(text, ELEM_NAME_MAX, "%s%u", types[type].name, lanes);
	else
		snprintf(text, ELEM_NAME_MAX, "%s", types[type].name);
	return text;
}

int elem_type_parse(const char *name, enum elem_type *type, unsigned *lanes)
{
	for (size_t t = 0; t <= ELEM_LAST; t++) {
		size_t len = strlen(types[t].name);
		if (strncmp(name, types[t].name, len) != 0)
			continue;
		const char *rest = name + len;
		if (*rest == '\0') {
			*type = (enum elem_type)t;
			*lanes = 1;
			return 0;
		}
		for (size_t v = 0; v < sizeof vector_lanes / sizeof vector_lanes[0]; v++) {
			char digits[4];
			snprintf(digits, sizeof digits, "%u", vector_lanes[v]);
			if (strcmp(rest, digits) == 0) {
				*type = (enum elem_type)t;
				*lanes = vector_lanes[v];
				return 0;
			}
		}
	}
	return -1;
}

const char *elem_type_names(void)
{
	return "char, uchar, short, ushort, int, uint, long, ulong, half, float, double, "
	       "and their vectors of 2, 3, 4, 8 and 16 (float4)";
}

size_t elem_size(enum elem_type type)
{
	return types[type].size;
}

unsigned elem_stride(unsigned lanes)
{
	return lanes == 3 ? 4 : lanes;
}

bool elem_is_padding(unsigned lanes, size_t i)
{
	return lanes == 3 && i % 4 == 3;
}

bool elem_is_float(enum elem_type type)
{
	return types[type].is_float;
}

bool elem_is_signed(enum elem_type type)
{
	return types[type].is_signed;
}

int elem_precision(enum elem_type type)
{
	return types[type].precision;
}

double elem_unit_roundoff(enum elem_type type)
{
	return types[type].precision ? ldexp(1, -types[type].precision) : 0;
}

int elem_bits(enum elem_type type)
{
	return (int)types[type].size * 8;
}

double elem_half_to_double(uint16_t h)
{
	int exponent = (h >> 10) & 0x1f;
	int mantissa = h & 0x3ff;
	double sign = h & 0x8000 ? -1 : 1;
	if (exponent == 0)
		return sign * ldexp(mantissa, -24);
	if (exponent == 31)
		return mantissa ? NAN : sign * INFINITY;
	return sign * ldexp(mantissa | 0x400, exponent - 25);
}

uint16_t elem_double_to_half(double v)
{
	uint16_t sign = signbit(v) ? 0x8000 : 0;
	if (isnan(v))
		return 0x7e00;
	double a = fabs(v);
	if (a >= 65520) /* rounds past the largest half, 65504 */
		return sign | 0x7c00;
	if (a < 0x1p-14) {
		/* Subnormal: a multiple of 2^-24, rounded to nearest even by rint. */
		return sign | (uint16_t)rint(a * 0x1p24);
	}
	int exponent;
	double fraction = frexp(a, &exponent); /* a = fraction * 2^exponent, fraction in [0.5, 1) */
	double significand = rint(fraction * 2048); /* 11 bits, to nearest even */
	if (significand == 2048) {
		significand = 1024;
		exponent++;
	}
	int biased = exponent - 1 + 15;
	if (biased >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)(biased << 10) | ((uint16_t)significand & 0x3ff);
}

uint64_t elem_get_bits(enum elem_type type, const void *data, size_t i)
{
	const char *p = (const char *)data + i * types[type].size;
	switch (type) {
	case ELEM_CHAR: {
		int8_t v;
		memcpy(&v, p, 1);
		return (uint64_t)(int64_t)v;
	}
	case ELEM_UCHAR:
		return (unsigned char)p[0];
	case ELEM_SHORT: {
		int16_t v;
		memcpy(&v, p, 2);
		return (uint64_t)(int64_t)v;
	}
	case ELEM_USHORT:
	case ELEM_HALF: {
		uint16_t v;
		memcpy(&v, p, 2);
		return v;
	}
	case ELEM_INT: {
		int32_t v;
		memcpy(&v, p, 4);
		return (uint64_t)(int64_t)v;
	}
	case ELEM_UINT:
	case ELEM_FLOAT: {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	case ELEM_LONG:
	case ELEM_ULONG:
	case ELEM_DOUBLE: {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	}
	return 0;
}

double elem_get(enum elem_type type, const void *data, size_t i)
{
	uint64_t bits = elem_get_bits(type, data, i);
	switch (type) {
	case ELEM_HALF:
		return elem_half_to_double((uint16_t)bits);
	case ELEM_FLOAT: {
		float f;
		uint32_t b = (uint32_t)bits;
		memcpy(&f, &b, 4);
		return f;
	}
	case ELEM_DOUBLE: {
		double d;
		memcpy(&d, &bits, 8);
		return d;
	}
	default:
		return types[type].is_signed ? (double)(int64_t)bits : (double)bits;
	}
}

uint64_t elem_wrap(enum elem_type type, uint64_t v)
{
	int bits = elem_bits(type);
	if (bits >= 64)
		return v;
	v &= (UINT64_C(1) << bits) - 1;
	if (types[type].is_signed && (v >> (bits - 1)) != 0)
		v |= ~UINT64_C(0) << bits;
	return v;
}

uint64_t elem_int_min(enum elem_type type)
{
	int bits = elem_bits(type);
	return types[type].is_signed ? ~UINT64_C(0) << (bits - 1) : 0;
}

uint64_t elem_int_max(enum elem_type type)
{
	int bits = elem_bits(type);
	if (types[type].is_signed)
		return (UINT64_C(1) << (bits - 1)) - 1;
	return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

void elem_set_bits(enum elem_type type, void *data, size_t i, uint64_t v)
{
	char *p = (char *)data + i * types[type].size;
	switch (types[type].size) {
	case 1: {
		uint8_t b = (uint8_t)v;
		memcpy(p, &b, 1);
		break;
	}
	case 2: {
		uint16_t b = (uint16_t)v;
		memcpy(p, &b, 2);
		break;
	}
	case 4: {
		uint32_t b = (uint32_t)v;
		memcpy(p, &b, 4);
		break;
	}
	default:
		memcpy(p, &v, 8);
		break;
	}
}

void elem_set(enum elem_type type, void *data, size_t i, double v)
{
	switch (type) {
	case ELEM_HALF:
		elem_set_bits(type, data, i, elem_double_to_half(v));
		return;
	case ELEM_FLOAT: {
		float f = (float)v;
		uint32_t b;
		memcpy(&b, &f, 4);
		elem_set_bits(type, data, i, b);
		return;
	}
	case ELEM_DOUBLE: {
		uint64_t b;
		memcpy(&b, &v, 8);
		elem_set_bits(type, data, i, b);
		return;
	}
	default:
		/* Past 64 bits a conversion is undefined: the nearest end stands in. */
		if (!(v > -0x1p63))
			v = -0x1p63;
		if (v >= 0x1p64)
			v = 0x1p64 - 2048;
		elem_set_bits(type, data, i, v >= 0x1p63 ? (uint64_t)v : (uint64_t)(int64_t)v);
		return;
	}
}

void kernel_type_normal(struct strbuf *out, const char *type)
{
	static const struct {
		const char *from, *to;
	} spellings[] = { { "unsigned int", "uint" },	  { "unsigned char", "uchar" },
			  { "unsigned short", "ushort" }, { "unsigned long", "ulong" },
			  { "unsigned", "uint" },	  { "signed int", "int" },
			  /* A bool in memory is a byte holding 0 or 1, as clang lays it
			   * out; the language keeps bool off scalar parameters. */
			  { "bool", "uchar" } };
	char *flat = xstrdup(type);
	for (char *p = flat; *p; p++)
		if (*p == '*')
			*p = ' ';
	char *trimmed = flat;
	while (isspace((unsigned char)*trimmed))
		trimmed++;
	char *end = trimmed + strlen(trimmed);
	while (end > trimmed && isspace((unsigned char)end[-1]))
		*--end = '\0';
	const char *base = trimmed;
	for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++)
		if (strcmp(trimmed, spellings[i].from) == 0)
			base = spellings[i].to;
	strbuf_puts(out, base);
	if (strchr(type, '*'))
		strbuf_puts(out, "*");
	free(flat);
}
