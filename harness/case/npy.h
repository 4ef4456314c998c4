/* npy.h - reads a user's data file: NumPy's .npy format (versions 1.0, 2.0 and 3.0), or
 * raw little-endian bytes (.bin) of a type the case names, into elements of a case's
 * buffer type; and writes .npy files of captured buffers. */
#ifndef CLH_NPY_H
#define CLH_NPY_H

#include <stddef.h>

#include "case/elem.h"

/* What a data file holds: `count` elements of `type`, in C order, in host layout. */
struct data_file {
	enum elem_type type;
	size_t count;
	void *data;
	char *shape; /* "(4, 256)" as NumPy writes it; "raw" for a .bin file */
};

/* Reads `path`, by its suffix: a .npy file whose elements must be of `type` ("float" is
 * '<f4', "int" '<i4', "uchar" '|u1', "half" '<f2', "double" '<f8'; big-endian forms
 * too), or a .bin file of raw
 * little-endian elements of `type`. Returns 0, or -1 with why in *why (which names the
 * suffix, dtype or shape found and what was expected; the caller frees it). */
int data_file_read(const char *path, enum elem_type type, struct data_file *out, char **why);
/* The .npy reading of data_file_read, of `len` bytes at `bytes` (a file's contents), for
 * the fuzz target and tests. */
int npy_parse(const unsigned char *bytes, size_t len, enum elem_type want, struct data_file *out,
	      char **why);
/* Spreads groups of `lanes` values to `stride` each, the rest zero: a file's 3-vectors laid
 * out as a buffer holds them, a padding lane after every three. */
void data_file_pad_lanes(struct data_file *f, unsigned lanes, unsigned stride);
void data_file_free(struct data_file *f);

/* Writes `count` elements of `type` with `lanes` lanes each, packed (a 3-vector's padding
 * lane left out), as a .npy file NumPy and data_file_read read back: shape (count,), or
 * (count, lanes) for vectors. Returns 0, or -1 with why (the caller frees it). */
int npy_write(const char *path, enum elem_type type, unsigned lanes, size_t count,
	      const void *values, char **why);
/* The header npy_write writes (version 1.0, padded to a multiple of 64 bytes), *len bytes;
 * the caller frees it. */
char *npy_header(enum elem_type type, unsigned lanes, size_t count, size_t *len);

#endif
