/* instrument.h - a program's source rewritten for racecheck: each load and store of local,
 * global and constant memory calls into a runtime, prepended to the program, that checks
 * it against shadow memory on the device, and each barrier closes an epoch of its
 * work-group. The rewrite keeps every line where it was, so the sites it lists are the
 * kernel file's own lines. Only built with libclang (HAVE_LIBCLANG). */
#ifndef CLH_INSTRUMENT_H
#define CLH_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* The control buffer's words (uint), which the host fills before a launch and reads
 * after it; the runtime's text names them through the same numbers. */
enum shadow_ctl {
	CTL_LOG_COUNT,	  /* records the launch wrote, counted past the log's end too */
	CTL_LOG_CAP,	  /* records the log holds */
	CTL_SHIFT,	  /* log2 of the shadow's granule in bytes */
	CTL_NSITES,	  /* sites of the program, the pair table's side */
	CTL_PAIRS,	  /* word where the pair table starts */
	CTL_LOG,	  /* word where the log starts */
	CTL_DIVERGENCE,	  /* cell where the work-groups' words (enum shadow_group_word) start */
	CTL_LOCAL_EACH,	  /* granules of local memory one work-group's shadow holds */
	CTL_LOCAL_CELLS,  /* cell where the work-groups' local shadows start */
	CTL_SINK,	  /* aux word (64-bit) where the sink for out-of-bounds accesses starts */
	CTL_NGLOBAL,	  /* global and constant parameters of the kernel launched */
	CTL_NLOCAL,	  /* local parameters of the kernel launched */
	CTL_REGIONS = 16, /* CTL_NGLOBAL regions of 4 words (bytes, first granule, each
			     64 bits low word first), then CTL_NLOCAL sizes of 2 words */
};

/* What a record or a pair counter is about. */
enum shadow_kind {
	SHADOW_READ_WRITE,    /* a read and a write no barrier orders */
	SHADOW_WRITE_WRITE,   /* two writes of different (or unknown) values */
	SHADOW_SAME_WRITES,   /* two writes of one value */
	SHADOW_OUT_OF_BOUNDS, /* an access outside every buffer, or past its own */
	SHADOW_DIVERGENCE,    /* work-items of one group passed different barriers */
	SHADOW_KINDS
};

/* Words of one log record: kind, this site, the other site, this item, the other item,
 * memory space (0 global, 1 local, 2 constant, SHADOW_PRIVATE; SHADOW_THIS_WRITES where
 * this site's access was the write of the pair), region, byte offset into it. A divergence
 * of a barrier's fence flags has space SHADOW_FENCE_FLAGS, the first item's flags for the
 * region and this item's for the offset. An index past an array of a size the source
 * gives (a private array, a struct's array field) is out of bounds with SHADOW_INDEX in
 * its space, the array's elements for the region and the index for the offset. */
#define SHADOW_FENCE_FLAGS  3
#define SHADOW_PRIVATE	    3
#define SHADOW_THIS_WRITES 0x100
#define SHADOW_INDEX	    0x200
/* An access through a cast pointer at an address off its type's alignment: out of bounds,
 * this in its space. */
#define SHADOW_UNALIGNED    0x400
#define SHADOW_RECORD_WORDS 8
/* Bytes of the sink an access outside every buffer is sent to, the largest type's. */
#define SHADOW_SINK_SHIFT 7
#define SHADOW_SINK_BYTES (1 << SHADOW_SINK_SHIFT)
/* The words each work-group keeps for its barriers, SHADOW_GROUP_WORDS a group from
 * CTL_DIVERGENCE: one pointer an item computes once reaches them all. */
enum shadow_group_word {
	SHADOW_GW_TALLY,    /* the barrier tally of the first item that ended */
	SHADOW_GW_ARRIVED,  /* arrivals at barriers */
	SHADOW_GW_FLAGS,    /* the fence flags the first item passed its last barrier with */
	SHADOW_GW_BRANCHES, /* SHADOW_BRANCHES conditions of branches that guard barriers */
	SHADOW_GROUP_WORDS = SHADOW_GW_BRANCHES + 4,
};
/* Guarded branches an item may take between two barriers whose conditions are compared
 * with its group's first item's (more are not compared). */
#define SHADOW_BRANCHES (SHADOW_GROUP_WORDS - SHADOW_GW_BRANCHES)

/* One access, barrier or atomic of the kernel file, where findings point. */
struct instr_site {
	int line;
	int col;
	char access; /* 'r' read, 'w' write, 'u' read and write, 'a' atomic, 'b' barrier,
		      'c' a work-group's async copy (it reads one side, writes the other) */
	char space;  /* 'g' global, 'l' local, 'c' constant, 'p' private, 0 for a barrier */
};

/* What a kernel's launch hands the runtime: its parameters' memory, and the local arrays
 * it declares. The rewrite appends three parameters after the kernel's own: the cells,
 * the aux words and the control words. */
struct instr_kernel {
	char *name;
	char *spaces;	  /* one letter a parameter: 'g', 'c', 'l', or 'p' for a value */
	size_t nparams;
	uint64_t local_bytes; /* of the local arrays it declares, each rounded to a granule */
};

/* An access the rewrite left alone, and why: the record is incomplete there. */
struct instr_gap {
	int line;
	int col;
	char *why;
};

struct instr_program {
	char *source; /* the rewritten program */
	size_t len;
	struct instr_site *sites;
	size_t nsites;
	struct instr_kernel *kernels;
	size_t nkernels;
	unsigned granule_shift; /* log2 of the smallest access's bytes, at most 2 */
	struct instr_gap *gaps;
	size_t ngaps;
};

/* Whether this build can rewrite kernels (libclang was found). */
bool instrument_available(void);

/* Rewrites the program in `path`, read with build `options`, in a child process that
 * loads libclang. Returns 0, or -1 with clang's errors or why it could not in diags. */
int instrument_program(const char *path, const char *options, struct instr_program *out,
		       struct diag_list *diags);
/* instrument_program in two halves, for a cache to keep the rewrite between them: the
 * rewrite as text (clang's errors are in it), or NULL with why in diags; and that text
 * read back. */
char *instrument_serialised(const char *path, const char *options, struct diag_list *diags);
int instrument_parse(const char *path, const char *serialised, struct instr_program *out,
		     struct diag_list *diags);
/* The rewrite's version, which changes with its runtime's text: a cache keys rewrites
 * by it, so none of an older runtime is ever used. */
const char *instrument_version(void);

const struct instr_kernel *instr_program_kernel(const struct instr_program *p, const char *name);
void instr_program_free(struct instr_program *p);

#endif
