/* wire.c - the frames a worker process sends its parent. Both ends are the same binary on
 * the same host, so fields travel in host byte order; each struct is encoded by one table
 * of its fields, read the same way it is written. */
#include "config.h"

#include "wire.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum field_kind { F_STR, F_U64, F_I64, F_INT, F_UINT, F_SIZE, F_DOUBLE, F_BOOL, F_VERDICT };

struct field {
	size_t offset;
	enum field_kind kind;
};

#define R(member, kind)                                                                            \
	{                                                                                          \
		offsetof(struct result, member), kind                                              \
	}
static const struct field result_fields[] = {
	R(case_name, F_STR),	R(case_path, F_STR),  R(target, F_STR),
	R(backend, F_STR),	R(n, F_I64),	      R(l, F_I64),
	R(verdict, F_VERDICT),	R(racy, F_BOOL),      R(kernel_ns, F_U64),
	R(reference_ns, F_U64), R(compare_ns, F_U64), R(repeat, F_UINT),
	R(builds, F_UINT),	R(generated, F_UINT), R(references, F_UINT),
	R(drift, F_DOUBLE),	R(file, F_STR),	      R(line, F_INT),
	R(col, F_INT),		R(message, F_STR),    R(detail, F_STR),
	R(buffer, F_STR),	R(index, F_SIZE),     R(got, F_DOUBLE),
	R(want, F_DOUBLE),	R(bound, F_DOUBLE),   R(mismatches, F_SIZE),
	R(compared, F_SIZE),
};
#undef R

#define T(member, kind)                                                                            \
	{                                                                                          \
		offsetof(struct target, member), kind                                              \
	}
static const struct field target_fields[] = {
	T(name, F_STR),		  T(type, F_STR),	    T(device, F_STR),
	T(platform, F_STR),	  T(driver, F_STR),	    T(opencl, F_STR),
	T(compute_units, F_UINT), T(max_work_group, F_U64), T(local_mem, F_U64),
	T(global_mem, F_U64),	  T(max_alloc, F_U64),	    T(platform_index, F_UINT),
	T(device_index, F_UINT),
};
#undef T

static size_t field_size(enum field_kind kind)
{
	switch (kind) {
	case F_U64:
	case F_I64:
	case F_DOUBLE:
		return 8;
	case F_SIZE:
		return sizeof(size_t);
	case F_INT:
	case F_UINT:
	case F_VERDICT:
		return sizeof(int);
	case F_BOOL:
		return sizeof(bool);
	case F_STR:
		return 0;
	}
	return 0;
}

static void encode(struct strbuf *out, enum frame_type type, const void *obj,
		   const struct field *fields, size_t nfields)
{
	struct strbuf payload = { 0 };
	for (size_t i = 0; i < nfields; i++) {
		const char *at = (const char *)obj + fields[i].offset;
		if (fields[i].kind != F_STR) {
			strbuf_append(&payload, at, field_size(fields[i].kind));
			continue;
		}
		const char *s = *(char *const *)at;
		uint32_t len = s ? (uint32_t)strlen(s) : UINT32_MAX;
		strbuf_append(&payload, (const char *)&len, sizeof len);
		if (s)
			strbuf_append(&payload, s, len);
	}
	unsigned char kind = (unsigned char)type;
	uint32_t len = (uint32_t)payload.len;
	strbuf_append(out, (const char *)&kind, 1);
	strbuf_append(out, (const char *)&len, sizeof len);
	strbuf_append(out, payload.data ? payload.data : "", payload.len);
	strbuf_free(&payload);
}

/* Fills obj from p; on malformed input frees what it allocated and returns -1. */
static int decode(const char *p, size_t len, void *obj, const struct field *fields, size_t nfields)
{
	size_t pos = 0;
	for (size_t i = 0; i < nfields; i++) {
		char *at = (char *)obj + fields[i].offset;
		if (fields[i].kind != F_STR) {
			size_t size = field_size(fields[i].kind);
			if (pos + size > len)
				goto malformed;
			memcpy(at, p + pos, size);
			pos += size;
			continue;
		}
		uint32_t slen;
		if (pos + sizeof slen > len)
			goto malformed;
		memcpy(&slen, p + pos, sizeof slen);
		pos += sizeof slen;
		if (slen == UINT32_MAX) {
			*(char **)at = NULL;
			continue;
		}
		if (pos + slen > len)
			goto malformed;
		*(char **)at = xstrndup(p + pos, slen);
		pos += slen;
	}
	return pos == len ? 0 : -1;
malformed:
	return -1;
}

void wire_target(struct strbuf *out, const struct target *t)
{
	encode(out, FRAME_TARGET, t, target_fields, sizeof target_fields / sizeof target_fields[0]);
}

void wire_result(struct strbuf *out, const struct result *r)
{
	encode(out, FRAME_RESULT, r, result_fields, sizeof result_fields / sizeof result_fields[0]);
}

struct begin {
	size_t case_index;
	size_t run;
	long long output_offset;
};
static const struct field begin_fields[] = {
	{ offsetof(struct begin, case_index), F_SIZE },
	{ offsetof(struct begin, run), F_SIZE },
	{ offsetof(struct begin, output_offset), F_I64 },
};

void wire_begin(struct strbuf *out, size_t case_index, size_t run, long long output_offset)
{
	struct begin b = { case_index, run, output_offset };
	encode(out, FRAME_BEGIN, &b, begin_fields, 3);
}

struct message {
	char *text;
};
static const struct field message_fields[] = { { offsetof(struct message, text), F_STR } };

void wire_message(struct strbuf *out, enum frame_type type, const char *message)
{
	struct message m = { (char *)message };
	encode(out, type, &m, message_fields, 1);
}

long wire_split(const char *buf, size_t len, enum frame_type *type, const char **payload,
		size_t *payload_len)
{
	uint32_t plen;
	if (len < 1 + sizeof plen)
		return 0;
	memcpy(&plen, buf + 1, sizeof plen);
	if (buf[0] < FRAME_TARGET || buf[0] > FRAME_END)
		return -1;
	if (len < 1 + sizeof plen + plen)
		return 0;
	*type = (enum frame_type)buf[0];
	*payload = buf + 1 + sizeof plen;
	*payload_len = plen;
	return (long)(1 + sizeof plen + plen);
}

int wire_read_target(const char *p, size_t len, struct target *t)
{
	*t = (struct target){ 0 };
	if (decode(p, len, t, target_fields, sizeof target_fields / sizeof target_fields[0]) == 0)
		return 0;
	target_free(t);
	return -1;
}

int wire_read_result(const char *p, size_t len, struct result *r)
{
	*r = (struct result){ 0 };
	if (decode(p, len, r, result_fields, sizeof result_fields / sizeof result_fields[0]) == 0)
		return 0;
	result_free(r);
	return -1;
}

int wire_read_begin(const char *p, size_t len, size_t *case_index, size_t *run,
		    long long *output_offset)
{
	struct begin b;
	if (decode(p, len, &b, begin_fields, 3) < 0)
		return -1;
	*case_index = b.case_index;
	*run = b.run;
	*output_offset = b.output_offset;
	return 0;
}

int wire_read_message(const char *p, size_t len, char **message)
{
	struct message m = { 0 };
	if (decode(p, len, &m, message_fields, 1) < 0) {
		free(m.text);
		return -1;
	}
	*message = m.text ? m.text : xstrdup("");
	return 0;
}
