/* wire.c - the frames a worker process sends its parent. Both ends are the same binary on
 * the same host, so fields travel in host byte order; each struct is encoded by one table
 * of its fields, read the same way it is written. A worker runs kernels on a CPU device as
 * native code in its own address space, so the parent trusts nothing it reads: every
 * boolean, enum, count and line is checked against its range, and a frame that fails is
 * malformed. */
#include "config.h"

#include "exec/wire.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum field_kind {
	F_STR,
	F_U64,
	F_I64,
	F_INT,
	F_UINT,
	F_SIZE,
	F_DOUBLE,
	F_BOOL,	    /* 0 or 1 */
	F_ENUM,	    /* 0 to the field's max */
	F_LINE,	    /* an int, a line or column: 0 (unknown) or more */
	F_ACCESS,   /* a char: 0, 'r', 'w', 'a' or 'c' (a work-group's async copy) */
	F_ENTITIES, /* a finding's two example work-items, as the bytes they are */
	F_SHAPE,    /* a struct shape: 0 to 3 dimensions, each from 1 to SHAPE_DIM_MAX */
};

struct field {
	size_t offset;
	enum field_kind kind;
	long long max; /* F_ENUM: its largest value; F_SIZE: its largest value, or 0 for any */
};

#define NFIELDS(table) (sizeof(table) / sizeof((table)[0]))

#define R(member, kind, max)                                                                       \
	{                                                                                          \
		offsetof(struct result, member), kind, max                                         \
	}
static const struct field result_fields[] = {
	R(case_name, F_STR, 0),
	R(case_path, F_STR, 0),
	R(target, F_STR, 0),
	R(backend, F_STR, 0),
	R(n, F_SHAPE, 0),
	R(l, F_SHAPE, 0),
	R(verdict, F_ENUM, VERDICT_SKIP),
	R(racy, F_BOOL, 0),
	R(kernel_ns, F_U64, 0),
	R(rounds_timed, F_UINT, 0),
	R(round_min_ns, F_U64, 0),
	R(round_median_ns, F_U64, 0),
	R(round_max_ns, F_U64, 0),
	R(run_ns, F_U64, 0),
	R(reference_ns, F_U64, 0),
	R(compare_ns, F_U64, 0),
	R(repeat, F_UINT, 0),
	R(builds, F_UINT, 0),
	R(cached_builds, F_UINT, 0),
	R(generated, F_UINT, 0),
	R(references, F_UINT, 0),
	R(drift, F_DOUBLE, 0),
	R(file, F_STR, 0),
	R(line, F_LINE, 0),
	R(col, F_LINE, 0),
	R(message, F_STR, 0),
	R(detail, F_STR, 0),
	R(printed, F_STR, 0),
	R(buffer, F_STR, 0),
	R(index, F_SIZE, 0),
	R(got, F_DOUBLE, 0),
	R(want, F_DOUBLE, 0),
	R(bound, F_DOUBLE, 0),
	R(mismatches, F_SIZE, 0),
	R(compared, F_SIZE, 0),
	R(unwritten, F_SIZE, 0),
	R(output, F_ENUM, VERDICT_SKIP),
	R(simulated, F_BOOL, 0),
	R(outputs_repeat, F_BOOL, 0),
};
#undef R

#define FD(member, kind, max)                                                                      \
	{                                                                                          \
		offsetof(struct finding, member), kind, max                                        \
	}
static const struct field finding_fields[] = {
	FD(kind, F_ENUM, FINDING_OTHER),
	FD(severity, F_ENUM, DIAG_NOTE),
	FD(what, F_STR, 0),
	FD(space, F_STR, 0),
	FD(kernel, F_STR, 0),
	FD(file, F_STR, 0),
	FD(at.line, F_LINE, 0),
	FD(at.col, F_LINE, 0),
	FD(at.access, F_ACCESS, 0),
	FD(other.line, F_LINE, 0),
	FD(other.col, F_LINE, 0),
	FD(other.access, F_ACCESS, 0),
	FD(count, F_U64, 0),
	FD(example, F_ENTITIES, 0),
	FD(nexample, F_SIZE, 2),
	FD(info, F_STR, 0),
	FD(input_set, F_STR, 0),
	FD(suppressed, F_UINT, 0),
	FD(outside_buffers, F_BOOL, 0),
};
#undef FD

#define T(member, kind)                                                                            \
	{                                                                                          \
		offsetof(struct target, member), kind, 0                                           \
	}
static const struct field target_fields[] = {
	T(name, F_STR),
	T(type, F_STR),
	T(device, F_STR),
	T(platform, F_STR),
	T(driver, F_STR),
	T(opencl, F_STR),
	T(limits.compute_units, F_UINT),
	T(limits.max_work_group, F_U64),
	T(limits.max_work_item[0], F_U64),
	T(limits.max_work_item[1], F_U64),
	T(limits.max_work_item[2], F_U64),
	T(limits.local_mem, F_U64),
	T(limits.global_mem, F_U64),
	T(limits.max_alloc, F_U64),
	T(limits.max_constant, F_U64),
	T(limits.max_constant_args, F_UINT),
	T(limits.fp64, F_BOOL),
	T(limits.fp16, F_BOOL),
	T(limits.non_uniform_std, F_UINT),
	T(platform_index, F_UINT),
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
	case F_ENUM:
	case F_LINE:
		return sizeof(int);
	case F_BOOL:
		return sizeof(bool);
	case F_ACCESS:
		return 1;
	case F_ENTITIES:
		return sizeof(((struct finding *)0)->example);
	case F_SHAPE:
		return sizeof(struct shape);
	case F_STR:
		return 0;
	}
	return 0;
}

/* Appends obj's fields to a payload. */
static void put_fields(struct strbuf *payload, const void *obj, const struct field *fields,
		       size_t nfields)
{
	for (size_t i = 0; i < nfields; i++) {
		const char *at = (const char *)obj + fields[i].offset;
		if (fields[i].kind != F_STR) {
			strbuf_append(payload, at, field_size(fields[i].kind));
			continue;
		}
		const char *s = *(char *const *)at;
		uint32_t len = s ? (uint32_t)strlen(s) : UINT32_MAX;
		strbuf_append(payload, (const char *)&len, sizeof len);
		if (s)
			strbuf_append(payload, s, len);
	}
}

/* Appends one frame holding `payload`. */
static void put_frame(struct strbuf *out, enum frame_type type, const struct strbuf *payload)
{
	unsigned char kind = (unsigned char)type;
	uint32_t len = (uint32_t)payload->len;
	strbuf_append(out, (const char *)&kind, 1);
	strbuf_append(out, (const char *)&len, sizeof len);
	strbuf_append(out, payload->data ? payload->data : "", payload->len);
}

static void encode(struct strbuf *out, enum frame_type type, const void *obj,
		   const struct field *fields, size_t nfields)
{
	struct strbuf payload = { 0 };
	put_fields(&payload, obj, fields, nfields);
	put_frame(out, type, &payload);
	strbuf_free(&payload);
}

/* Whether the field's bytes at p hold a value its type and table allow, checked before
 * they are copied into a type (a bool or an enum) that no other value may take. */
static bool in_range(const struct field *f, const char *p)
{
	switch (f->kind) {
	case F_BOOL:
		return (unsigned char)p[0] <= 1; /* bool's one byte on every ABI we build for */
	case F_ENUM: {
		int v;
		memcpy(&v, p, sizeof v);
		return v >= 0 && v <= f->max;
	}
	case F_LINE: {
		int v;
		memcpy(&v, p, sizeof v);
		return v >= 0;
	}
	case F_ACCESS:
		return p[0] == 0 || p[0] == 'r' || p[0] == 'w' || p[0] == 'a' || p[0] == 'c';
	case F_SIZE: {
		size_t v;
		memcpy(&v, p, sizeof v);
		return f->max == 0 || v <= (size_t)f->max;
	}
	case F_SHAPE: {
		struct shape s;
		memcpy(&s, p, sizeof s);
		if (s.dims > SHAPE_MAX_DIMS)
			return false;
		for (unsigned d = 0; d < s.dims; d++)
			if (s.d[d] < 1 || s.d[d] > SHAPE_DIM_MAX)
				return false;
		return true;
	}
	case F_ENTITIES:
		for (size_t e = 0; e < 2; e++) {
			size_t at = e * sizeof(struct entity) +
				    offsetof(struct entity, is_item);
			if ((unsigned char)p[at] > 1)
				return false;
		}
		return true;
	default:
		return true;
	}
}

/* Fills obj from p at *pos, moving *pos past what it read. Returns -1 on malformed input;
 * strings read so far stay in obj for the caller to free. */
static int get_fields(const char *p, size_t len, size_t *at_pos, void *obj,
		      const struct field *fields, size_t nfields)
{
	size_t pos = *at_pos;
	for (size_t i = 0; i < nfields; i++) {
		char *at = (char *)obj + fields[i].offset;
		if (fields[i].kind != F_STR) {
			size_t size = field_size(fields[i].kind);
			if (size > len - pos || !in_range(&fields[i], p + pos))
				goto malformed;
			memcpy(at, p + pos, size);
			pos += size;
			continue;
		}
		uint32_t slen;
		if (sizeof slen > len - pos)
			goto malformed;
		memcpy(&slen, p + pos, sizeof slen);
		pos += sizeof slen;
		if (slen == UINT32_MAX) {
			*(char **)at = NULL;
			continue;
		}
		if (slen > len - pos)
			goto malformed;
		*(char **)at = xstrndup(p + pos, slen);
		pos += slen;
	}
	*at_pos = pos;
	return 0;
malformed:
	return -1;
}

/* Fills obj from the whole of p. */
static int decode(const char *p, size_t len, void *obj, const struct field *fields, size_t nfields)
{
	size_t pos = 0;
	return get_fields(p, len, &pos, obj, fields, nfields) == 0 && pos == len ? 0 : -1;
}

void wire_target(struct strbuf *out, const struct target *t)
{
	encode(out, FRAME_TARGET, t, target_fields, NFIELDS(target_fields));
}

#define K(member, type, ...)                                                                       \
	{                                                                                          \
		.offset = offsetof(struct kept_buffer, member), .kind = type, __VA_ARGS__          \
	}
static const struct field kept_fields[] = { K(name, F_STR), K(type, F_ENUM, .max = ELEM_LAST),
					    K(lanes, F_ENUM, .max = ELEM_MAX_LANES),
					    K(count, F_SIZE) };
#undef K

/* A result's fields, then its findings (their number and each one's fields), then its
 * kept buffers (their number, and each one's fields and bytes). */
void wire_result(struct strbuf *out, const struct result *r)
{
	struct strbuf payload = { 0 };
	put_fields(&payload, r, result_fields, NFIELDS(result_fields));
	size_t count = r->findings.count;
	strbuf_append(&payload, (const char *)&count, sizeof count);
	for (size_t i = 0; i < count; i++)
		put_fields(&payload, &r->findings.items[i], finding_fields,
			   NFIELDS(finding_fields));
	strbuf_append(&payload, (const char *)&r->nkept, sizeof r->nkept);
	for (size_t i = 0; i < r->nkept; i++) {
		put_fields(&payload, &r->kept[i], kept_fields, NFIELDS(kept_fields));
		strbuf_append(&payload, r->kept[i].data,
			      r->kept[i].count * elem_size(r->kept[i].type));
	}
	put_frame(out, FRAME_RESULT, &payload);
	strbuf_free(&payload);
}

struct begin {
	size_t case_index;
	size_t run;
	long long output_offset;
};
static const struct field begin_fields[] = {
	{ .offset = offsetof(struct begin, case_index), .kind = F_SIZE },
	{ .offset = offsetof(struct begin, run), .kind = F_SIZE },
	{ .offset = offsetof(struct begin, output_offset), .kind = F_I64 },
};

void wire_begin(struct strbuf *out, size_t case_index, size_t run, long long output_offset)
{
	struct begin b = { case_index, run, output_offset };
	encode(out, FRAME_BEGIN, &b, begin_fields, 3);
}

static const struct field resume_fields[] = { { .offset = offsetof(struct begin, case_index),
						.kind = F_SIZE } };

void wire_resume(struct strbuf *out, size_t case_index)
{
	struct begin b = { .case_index = case_index };
	encode(out, FRAME_RESUME, &b, resume_fields, NFIELDS(resume_fields));
}

int wire_read_resume(const char *p, size_t len, size_t *case_index)
{
	struct begin b;
	if (decode(p, len, &b, resume_fields, NFIELDS(resume_fields)) < 0)
		return -1;
	*case_index = b.case_index;
	return 0;
}

struct message {
	char *text;
};
static const struct field message_fields[] = { { .offset = offsetof(struct message, text),
						 .kind = F_STR } };

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
	if (buf[0] < FRAME_TARGET || buf[0] > FRAME_NEXT || plen > WIRE_MAX_PAYLOAD)
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
	if (decode(p, len, t, target_fields, NFIELDS(target_fields)) == 0)
		return 0;
	target_free(t);
	return -1;
}

/* Reads a count at *pos; -1 when it does not fit, or when there could not be that many
 * items of at least one byte each in what is left. */
static int get_count(const char *p, size_t len, size_t *pos, size_t *count)
{
	if (*pos + sizeof *count > len)
		return -1;
	memcpy(count, p + *pos, sizeof *count);
	*pos += sizeof *count;
	return *count > len - *pos ? -1 : 0;
}

int wire_read_result(const char *p, size_t len, struct result *r)
{
	*r = (struct result){ 0 };
	size_t pos = 0, count = 0;
	if (get_fields(p, len, &pos, r, result_fields, NFIELDS(result_fields)) < 0 ||
	    get_count(p, len, &pos, &count) < 0)
		goto malformed;
	r->findings.items = xcalloc(count ? count : 1, sizeof *r->findings.items);
	for (size_t i = 0; i < count; i++) {
		r->findings.count = i + 1;
		if (get_fields(p, len, &pos, &r->findings.items[i], finding_fields,
			       NFIELDS(finding_fields)) < 0)
			goto malformed;
	}
	if (get_count(p, len, &pos, &count) < 0)
		goto malformed;
	r->kept = xcalloc(count ? count : 1, sizeof *r->kept);
	for (size_t i = 0; i < count; i++) {
		struct kept_buffer *k = &r->kept[i];
		r->nkept = i + 1;
		if (get_fields(p, len, &pos, k, kept_fields, NFIELDS(kept_fields)) < 0 ||
		    k->count > (len - pos) / elem_size(k->type))
			goto malformed;
		size_t bytes = k->count * elem_size(k->type);
		k->data = xmalloc(bytes ? bytes : 1);
		memcpy(k->data, p + pos, bytes);
		pos += bytes;
	}
	if (pos == len) {
		result_cut(r);
		return 0;
	}
malformed:
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
		*message = xstrdup("(a message that could not be read)");
		return -1;
	}
	*message = m.text ? m.text : xstrdup("");
	return 0;
}

#define P(member, type, ...)                                                                       \
	{                                                                                          \
		.offset = offsetof(struct kernel_param, member), .kind = type, __VA_ARGS__         \
	}
static const struct field param_fields[] = { P(name, F_STR), P(type, F_STR),
					     P(kind, F_ENUM, .max = ARG_SCALAR),
					     P(read_only, F_BOOL), P(constant, F_BOOL) };
#undef P

#define S(member)                                                                                  \
	{                                                                                          \
		.offset = offsetof(struct kernel_sig, member), .kind = F_SIZE,                     \
		.max = SHAPE_DIM_MAX                                                               \
	}
static const struct field sig_fields[] = { S(reqd_local[0]), S(reqd_local[1]), S(reqd_local[2]) };
#undef S

void wire_signature(struct strbuf *out, const struct kernel_sig *sig)
{
	struct strbuf payload = { 0 };
	strbuf_append(&payload, (const char *)&sig->count, sizeof sig->count);
	for (size_t i = 0; i < sig->count; i++)
		put_fields(&payload, &sig->params[i], param_fields, NFIELDS(param_fields));
	put_fields(&payload, sig, sig_fields, NFIELDS(sig_fields));
	put_frame(out, FRAME_SIGNATURE, &payload);
	strbuf_free(&payload);
}

int wire_read_signature(const char *p, size_t len, struct kernel_sig *sig)
{
	*sig = (struct kernel_sig){ 0 };
	size_t pos = 0, count;
	if (get_count(p, len, &pos, &count) < 0)
		return -1;
	sig->params = xcalloc(count ? count : 1, sizeof *sig->params);
	for (size_t i = 0; i < count; i++) {
		sig->count = i + 1;
		if (get_fields(p, len, &pos, &sig->params[i], param_fields, NFIELDS(param_fields)) <
		    0)
			break;
	}
	if (sig->count == count &&
	    get_fields(p, len, &pos, sig, sig_fields, NFIELDS(sig_fields)) == 0 && pos == len)
		return 0;
	kernel_sig_free(sig);
	return -1;
}
