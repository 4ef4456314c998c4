/* npy.c - a strict reader of NumPy's .npy header (a magic string, a version, a header
 * length and a Python dict literal of descr, fortran_order and shape) and of raw .bin
 * files. Anything it does not recognise is refused with what it found, never guessed. */
#include "config.h"

#include "case/npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The dtype NumPy writes for each element type, little-endian and big-endian (a byte has
 * no order: '|'). */
static const struct {
	enum elem_type type;
	const char *little, *big;
} descrs[] = {
	{ ELEM_CHAR, "|i1", "|i1" },   { ELEM_UCHAR, "|u1", "|u1" },  { ELEM_SHORT, "<i2", ">i2" },
	{ ELEM_USHORT, "<u2", ">u2" }, { ELEM_INT, "<i4", ">i4" },    { ELEM_UINT, "<u4", ">u4" },
	{ ELEM_LONG, "<i8", ">i8" },   { ELEM_ULONG, "<u8", ">u8" },  { ELEM_HALF, "<f2", ">f2" },
	{ ELEM_FLOAT, "<f4", ">f4" },  { ELEM_DOUBLE, "<f8", ">f8" },
};

static int fail(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(char **why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	*why = xvasprintf(fmt, ap);
	va_end(ap);
	return -1;
}

/* The value of `key` in the header's dict: a pointer just past "'key':" and its spaces,
 * or NULL. */
static const char *dict_value(const char *header, const char *key)
{
	char *quoted = xasprintf("'%s'", key);
	const char *at = strstr(header, quoted);
	size_t len = strlen(quoted);
	free(quoted);
	if (at == NULL)
		return NULL;
	at += len;
	while (*at == ' ')
		at++;
	if (*at != ':')
		return NULL;
	at++;
	while (*at == ' ')
		at++;
	return at;
}

/* Parses the shape tuple at p, "(4, 256)" or "(7,)" or "()", into the element count; -1
 * on a malformed tuple or an overflow. Keeps the tuple's text in *text. */
static int parse_shape(const char *p, size_t *count, char **text)
{
	if (*p != '(')
		return -1;
	const char *start = p++;
	size_t n = 1;
	while (*p == ' ')
		p++;
	while (*p != ')') {
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		char *end;
		unsigned long long dim = strtoull(p, &end, 10);
		if (errno == ERANGE || __builtin_mul_overflow(n, (size_t)dim, &n) || dim > SIZE_MAX)
			return -1;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p != ')')
			return -1;
		while (*p == ' ')
			p++;
	}
	*count = n;
	*text = xstrndup(start, (size_t)(p - start + 1));
	return 0;
}

int npy_parse(const unsigned char *bytes, size_t len, enum elem_type want, struct data_file *out,
	      char **why)
{
	*out = (struct data_file){ .type = want };
	if (len < 10 || memcmp(bytes, "\x93NUMPY", 6) != 0)
		return fail(why, "not a .npy file: it does not start with NumPy's magic string");
	unsigned major = bytes[6];
	size_t header_len, header_at;
	if (major == 1) {
		header_len = bytes[8] | (size_t)bytes[9] << 8;
		header_at = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12)
			return fail(why, "a .npy file cut short in its header");
		header_len = bytes[8] | (size_t)bytes[9] << 8 | (size_t)bytes[10] << 16 |
			     (size_t)bytes[11] << 24;
		header_at = 12;
	} else {
		return fail(why, ".npy format version %u.%u, which is none of 1.0, 2.0 and 3.0",
			    major, bytes[7]);
	}
	if (header_len > len - header_at)
		return fail(why, "a .npy file cut short in its header");
	char *header = xstrndup((const char *)bytes + header_at, header_len);
	int status = -1;
	const char *descr = dict_value(header, "descr");
	const char *order = dict_value(header, "fortran_order");
	const char *shape = dict_value(header, "shape");
	const char *want_descr = NULL;
	enum elem_type type = want;
	bool big = false, known = false;
	if (descr == NULL || order == NULL || shape == NULL) {
		fail(why, "a .npy header without descr, fortran_order and shape: %s", header);
		goto out;
	}
	for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++) {
		if (descrs[i].type == want)
			want_descr = descrs[i].little;
		size_t l = strlen(descrs[i].little);
		if (descr[0] == '\'' &&
		    (strncmp(descr + 1, descrs[i].little, l) == 0 ||
		     strncmp(descr + 1, descrs[i].big, l) == 0) &&
		    descr[1 + l] == '\'') {
			type = descrs[i].type;
			big = descr[1] == '>';
			known = true;
		}
	}
	if (!known || type != want) {
		/* The dtype as written, up to the dict's next entry. */
		fail(why, "dtype %.*s, but the buffer is %s ('%s')", (int)strcspn(descr, ",}"),
		     descr, elem_type_name(want), want_descr);
		goto out;
	}
	if (strncmp(order, "True", 4) == 0) {
		fail(why, "an array in Fortran order: save it in C order (np.ascontiguousarray)");
		goto out;
	}
	if (strncmp(order, "False", 5) != 0 || parse_shape(shape, &out->count, &out->shape) < 0) {
		fail(why, "a .npy header NumPy did not write: %s", header);
		goto out;
	}
	size_t data_at = header_at + header_len;
	size_t bytes_needed;
	if (__builtin_mul_overflow(out->count, elem_size(want), &bytes_needed) ||
	    bytes_needed != len - data_at) {
		fail(why,
		     "shape %s holds %zu elements of %zu bytes, but the file has %zu bytes of "
		     "data",
		     out->shape, out->count, elem_size(want), len - data_at);
		goto out;
	}
	out->data = xmalloc(bytes_needed ? bytes_needed : 1);
	memcpy(out->data, bytes + data_at, bytes_needed);
	size_t size = elem_size(want);
	for (size_t i = 0; big && size > 1 && i < out->count; i++) {
		unsigned char *e = (unsigned char *)out->data + size * i;
		for (size_t a = 0, b = size - 1; a < b; a++, b--) {
			unsigned char t = e[a];
			e[a] = e[b];
			e[b] = t;
		}
	}
	status = 0;
out:
	free(header);
	if (status < 0)
		data_file_free(out);
	return status;
}

/* raw_read's reading of `len` bytes, which it takes. */
static int raw_parse(char *bytes, size_t len, enum elem_type type, struct data_file *out,
		     char **why)
{
	if (len % elem_size(type) != 0) {
		free(bytes);
		return fail(why, "%zu bytes, which is no whole number of %zu-byte %s elements", len,
			    elem_size(type), elem_type_name(type));
	}
	/* Host layout is little-endian on every machine the harness builds for (x86-64). */
	out->count = len / elem_size(type);
	out->data = bytes;
	out->shape = xstrdup("raw");
	return 0;
}

int data_file_read(const char *path, enum elem_type type, struct data_file *out, char **why)
{
	*out = (struct data_file){ .type = type };
	bool npy = has_suffix(path, ".npy");
	if (!npy && !has_suffix(path, ".bin"))
		return fail(why,
			    "it is neither .npy (NumPy's format) nor .bin (raw little-endian %s "
			    "elements)",
			    elem_type_name(type));
	size_t len;
	char *bytes = read_file(path, &len);
	if (bytes == NULL)
		return fail(why, "cannot read it: %s", file_error(errno));
	if (!npy)
		return raw_parse(bytes, len, type, out, why);
	int status = npy_parse((const unsigned char *)bytes, len, type, out, why);
	free(bytes);
	return status;
}

void data_file_pad_lanes(struct data_file *f, unsigned lanes, unsigned stride)
{
	size_t size = elem_size(f->type);
	size_t elements = f->count / lanes;
	char *spread = xcalloc(elements * stride + 1, size);
	for (size_t e = 0; e < elements; e++)
		memcpy(spread + e * stride * size, (char *)f->data + e * lanes * size,
		       lanes * size);
	free(f->data);
	f->data = spread;
	f->count = elements * stride;
}

void data_file_free(struct data_file *f)
{
	if (f == NULL)
		return;
	free(f->data);
	free(f->shape);
	*f = (struct data_file){ 0 };
}

char *npy_header(enum elem_type type, unsigned lanes, size_t count, size_t *len)
{
	const char *descr = NULL;
	for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++)
		if (descrs[i].type == type)
			descr = descrs[i].little;
	char *dict = lanes > 1 ? xasprintf("{'descr': '%s', 'fortran_order': False, "
					   "'shape': (%zu, %u), }",
					   descr, count, lanes)
			       : xasprintf("{'descr': '%s', 'fortran_order': False, "
					   "'shape': (%zu,), }",
					   descr, count);
	/* Version 1.0: magic, version, a 2-byte header length, the dict padded with spaces
	 * and a newline so that the data starts at a multiple of 64 bytes. */
	size_t preamble = 10, dict_len = strlen(dict);
	size_t padded = (preamble + dict_len + 1 + 63) / 64 * 64 - preamble;
	char *head = xmalloc(preamble + padded);
	memcpy(head, "\x93NUMPY\x01\x00", 8);
	head[8] = (char)(padded & 0xff);
	head[9] = (char)(padded >> 8);
	memcpy(head + preamble, dict, dict_len);
	memset(head + preamble + dict_len, ' ', padded - dict_len - 1);
	head[preamble + padded - 1] = '\n';
	free(dict);
	*len = preamble + padded;
	return head;
}

int npy_write(const char *path, enum elem_type type, unsigned lanes, size_t count,
	      const void *values, char **why)
{
	size_t head_len;
	char *head = npy_header(type, lanes, count, &head_len);
	FILE *f = head_len < 65536 ? fopen(path, "wb") : NULL;
	int status = 0;
	if (f == NULL) {
		status = fail(why, "cannot write %s: %s", path,
			      head_len < 65536 ? strerror(errno) : "its header is too long");
		free(head);
		return status;
	}
	size_t bytes = count * lanes * elem_size(type);
	bool ok = fwrite(head, 1, head_len, f) == head_len && fwrite(values, 1, bytes, f) == bytes;
	if (fclose(f) != 0 || !ok)
		status = fail(why, "cannot write %s: %s", path, strerror(errno));
	free(head);
	return status;
}
