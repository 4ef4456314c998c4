/* rawread.h - reads what the capture layer left (rawlaunch.h): one launch's manifest, with
 * its arguments and the files of its buffers' bytes. */
#ifndef CLH_RAWREAD_H
#define CLH_RAWREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum raw_arg_kind { RAW_BUFFER, RAW_NULL, RAW_LOCAL, RAW_VALUE };

struct raw_arg {
	enum raw_arg_kind kind;
	char *name;
	char *type;	  /* the driver's spelling, spaces restored: "float*", "struct p" */
	bool constant;	  /* a buffer in __constant memory */
	uint64_t mem;	  /* RAW_BUFFER: the memory object, the same for one passed twice */
	uint64_t parent;  /* the buffer a sub-buffer lies in; 0 for none */
	size_t origin;	  /* where in its parent */
	size_t size;	  /* RAW_BUFFER: its bytes; RAW_LOCAL: the local memory's */
	bool writable;	  /* the kernel may write it: the bytes after the launch were kept */
	unsigned char *value; /* RAW_VALUE: the argument's bytes */
	size_t value_size;
};

struct raw_launch {
	char *dir;	 /* the launch's folder: argK.before and argK.after lie there */
	unsigned program;
	char *kernel;
	unsigned dims;
	size_t global[3], local[3], offset[3];
	bool local_given; /* else the application let the driver choose */
	struct raw_arg *args;
	size_t nargs;
};

/* Reads the manifest of the launch in folder `dir`. Returns 0; 1 when the folder holds no
 * manifest (the program died before the launch was saved whole); -1 with why (the caller
 * frees it) for a manifest it cannot read, naming the line. */
int raw_launch_read(const char *dir, struct raw_launch *out, char **why);
void raw_launch_free(struct raw_launch *launch);

/* The file of argument `index`'s bytes before (after = false) or after the launch, with
 * RAWLAUNCH_BYTES_AT bytes of room before them; the caller frees it. */
char *raw_arg_path(const struct raw_launch *launch, size_t index, bool after);
/* The bytes argument `index` held before (after = false) or after the launch, all
 * raw_arg.size of them; NULL with why where the file is missing or short. */
unsigned char *raw_arg_bytes(const struct raw_launch *launch, size_t index, bool after,
			     char **why);

#endif
