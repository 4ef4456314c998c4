/* kernelsrc.h - a kernel's source as clang reads it, preprocessed with the program's build
 * options (libclang; no OpenCL runtime): where each parameter stands in the file, what
 * form it has, and the exact layout of every struct it takes, packed, nested or with
 * arrays, its fields typed through macros and typedefs, none of which a driver reports;
 * and the local arrays of the kernel's body, whose sizes can tie it to one work-group
 * shape. */
#ifndef CLH_KERNELSRC_H
#define CLH_KERNELSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "case/record.h"

/* What a parameter is, as a checker must make it. */
enum src_form {
	SRC_VALUE,   /* a scalar, vector or struct by value */
	SRC_POINTER, /* a pointer to global, constant or local memory */
	SRC_IMAGE,
	SRC_SAMPLER,
	SRC_PIPE,
	SRC_OTHER, /* anything else OpenCL C allows there (event_t, clk_queue_t) */
};

struct src_param {
	char *name;
	char *type; /* as the source spells it */
	int line, col;
	enum src_form form;
	/* The struct it takes by value or points to, laid out as the device lays it out;
	 * NULL for none, or where `why` says why it cannot be made. */
	struct record *record;
	char *why;
	/* The scalar or vector type it is or points to, through typedefs and macros
	 * (real_arg as float); lanes 0 where it is none. */
	enum elem_type elem;
	unsigned lanes;
};

/* A local array the kernel's body declares, `local float tile[16][17]`. */
struct src_local_array {
	char *name;
	int line, col;
	long long dims[3]; /* its sizes, outermost first */
	unsigned ndims;
};

struct kernel_source {
	int line, col; /* the kernel's name */
	struct src_param *params;
	size_t nparams;
	struct src_local_array *locals;
	size_t nlocals;
};

/* Whether this build reads sources with libclang; without it kernelsrc_read fails. */
bool kernelsrc_available(void);

/* Reads kernel `kernel` of the OpenCL C file `path`, preprocessed with the build
 * `options` (-D, -I, -cl-std=). Returns 0, or -1 with why in diags: the file does not
 * parse (its errors at their lines), or holds no such kernel. */
int kernelsrc_read(const char *path, const char *kernel, const char *options,
		   struct kernel_source *out, struct diag_list *diags);
void kernel_source_free(struct kernel_source *ks);

#endif
