/* testcase.h - the case model: one YAML case file, validated, with source positions kept
 * so that every later error (at plan or run time) can still point at its line. */
#ifndef CLH_TESTCASE_H
#define CLH_TESTCASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "case/elem.h"
#include "case/expr.h"
#include "case/npy.h"
#include "case/record.h"
#include "case/reference.h"
#include "case/shape.h"
#include "case/ulps.h"
#include "case/suppress.h"
#include "case/yamlread.h"

/* INIT_NONE: left uninitialised on purpose (init: none), never written from the host, so
 * a simulator reports the reads of what the kernel did not write first. */
enum init_kind {
	INIT_POISON,
	INIT_FILL,
	INIT_IOTA,
	INIT_RANDOM,
	INIT_RANDOM_INT,
	INIT_FILE,
	INIT_NONE,
};

/* What the kernel may do to a buffer (access:), as its memory object is created: a
 * simulator reports a write to read-only memory. */
enum buffer_access { ACCESS_READ_WRITE, ACCESS_READ_ONLY, ACCESS_WRITE_ONLY };

/* How a buffer starts. Without an init it is poisoned (NaN or 0xDEADBEEF) so that an
 * element the kernel never writes cannot pass as a zero by luck. */
struct init_spec {
	enum init_kind kind;
	double lo;     /* fill value, iota start, lower end of a random range */
	double hi;     /* upper end of a random range */
	uint64_t seed; /* per buffer: the case's seed mixed with the buffer's name */
	struct src_pos pos;
	char *file;	       /* INIT_FILE: as the case names it */
	struct data_file data; /* INIT_FILE: its elements, of the buffer's type */
};

/* A buffer of `count` elements of `type` with `lanes` lanes (1 for a scalar type), held as
 * count * elem_stride(lanes) scalars. */
struct buffer_decl {
	char *name;
	enum elem_type type;
	unsigned lanes;
	struct record *record; /* a buffer of structs: type and lanes unused */
	struct pexpr count;
	struct init_spec init;
	bool output;
	bool constant; /* in __constant memory: read only, limited by the device */
	enum buffer_access access;
	/* buffer: null, a NULL pointer; a buffer of 0 elements is passed as NULL too, since
	 * OpenCL makes no empty memory objects. */
	bool null_pointer;
	struct src_pos pos;
};

enum arg_kind { ARG_BUFFER, ARG_LOCAL, ARG_SCALAR };

/* One lane's value as a case gives it: a size expression (1000, N - 1), or a number that
 * is no whole number (0.5, -1e-3), which only a float scalar takes. */
struct lane_term {
	struct pexpr expr; /* expr NULL: `number` */
	double number;
};

/* A scalar's value: one term for every lane, or a list of one a lane ([1, 2, 3, 4]). */
struct scalar_value {
	struct lane_term *terms;
	unsigned count; /* 1: every lane takes terms[0] */
};
void scalar_value_free(struct scalar_value *v);
struct scalar_value scalar_value_copy(const struct scalar_value *v);

/* One kernel argument, in kernel order. A buffer argument names a buffer of the case
 * (declared here or in an earlier step); local and scalar arguments carry their own. */
struct arg {
	enum arg_kind kind;
	struct src_pos pos;
	size_t buffer;			   /* ARG_BUFFER: index into test_case.buffers */
	enum elem_type type;		   /* ARG_LOCAL, ARG_SCALAR */
	unsigned lanes;			   /* ARG_LOCAL, ARG_SCALAR: 1, or a vector's lanes */
	struct record *record;		   /* ARG_LOCAL, ARG_SCALAR: a struct in place of a type */
	struct pexpr count;		   /* ARG_LOCAL: elements */
	struct scalar_value value;	   /* ARG_SCALAR */
	struct scalar_value *field_values; /* ARG_SCALAR of a struct: each field's */
};

struct step {
	char *kernel_file; /* as the case wrote it */
	char *kernel_path; /* resolved, readable */
	char *kernel_name;
	struct src_pos file_pos;
	struct src_pos name_pos;
	struct src_pos args_pos;
	/* One expression a dimension: global: N, or global: [N, M]. */
	struct pexpr global[SHAPE_MAX_DIMS];
	unsigned global_dims;
	struct pexpr local[SHAPE_MAX_DIMS]; /* local_dims 0: the case's L */
	unsigned local_dims;
	struct pexpr offset[SHAPE_MAX_DIMS]; /* offset_dims 0: no global offset */
	unsigned offset_dims;
	struct src_pos global_pos, local_pos, offset_pos;
	struct pexpr repeat; /* expr NULL: once; else launched for I = 0 .. repeat-1 */
	struct arg *args;
	size_t nargs;
};

enum tolerance { TOL_EXACT, TOL_REDUCTION, TOL_UNORDERED };

/* One output buffer compared with a CPU reference. */
struct check {
	size_t buffer;
	const struct ref_info *ref;
	size_t of[2];
	enum tolerance tolerance;
	struct pexpr group;    /* per-group references; expr NULL: L */
	struct pexpr shift;    /* rotate */
	struct pexpr count;    /* elements compared; expr NULL: the whole buffer */
	struct pexpr serial;   /* elements one work-item adds serially; NULL: 1 */
	struct pexpr partials; /* partials combined in a tree; NULL: group, or the count */
	struct pexpr width;    /* matrix references: the output's columns; NULL: N */
	struct pexpr height;   /* and rows; NULL: M */
	struct src_pos pos;
	struct src_pos tolerance_pos;
	struct step *ref_step;	   /* REF_KERNEL: the reference kernel's launch */
	char *expected_file;	   /* REF_FILE: as the case names it */
	struct data_file expected; /* REF_FILE: the values, of the checked buffer's type */
	struct src_pos reference_pos;
	/* REF_FILE with at: the one launch shape the values are of; compared there alone. */
	bool has_at;
	struct shape at_n, at_l;
	/* REF_TARGETS with recorded: expected holds the application's own output at at_n,
	 * at_l (expected_file names it), the third voice where two targets disagree. */
	bool recorded;
};

struct test_case {
	char *path; /* the case file as given */
	char *name; /* topic/name: the path below cases/, without .yaml */
	char *about;
	char *options;	    /* extra program build options, may be NULL */
	bool sim_optimised; /* sim_build: optimised: the simulator runs the optimised program */
	bool racy;	    /* output may be wrong on real devices: recorded, not failed */
	bool non_uniform;   /* a global size may be no multiple of the work-group size */
	bool reference_run; /* case_load_reference's: runs a reference kernel, checks nothing */
	unsigned timeout_s; /* a run's time limit, for a kernel that may hang; 0: the run's */
	unsigned launches;  /* launches a run, where set; 0: the run options' repeat */
	struct pexpr bytes; /* bytes one round moves; expr NULL: every global buffer once */
	struct suppression_list suppress; /* findings the case means to have */
	uint64_t seed;
	struct shape *sizes; /* N (and M, K) */
	size_t nsizes;
	struct shape *sim_sizes; /* N under a simulator; none: the case is not simulated */
	size_t nsim_sizes;
	struct shape *locals; /* L (and LY, LZ) */
	size_t nlocals;
	struct shape *sim_locals; /* L under a simulator; none: the case's local list */
	size_t nsim_locals;
	/* A reference run's shapes: exactly the (N, L) pairs some target runs, pair_sizes[i]
	 * with pair_locals[i]; npairs 0 in any other case. */
	struct shape *pair_sizes;
	struct shape *pair_locals;
	size_t npairs;
	struct src_pos sizes_pos;
	struct src_pos local_pos;
	struct buffer_decl *buffers;
	size_t nbuffers;
	struct step *steps;
	size_t nsteps;
	struct check *checks;
	size_t nchecks;
	/* How far apart two targets may leave its floats: the bound the built-ins its
	 * kernels call earn (0 ulp where they call none with an error). */
	struct ulp_bound float_ulps;
};

/* Loads and validates one case file. Returns the case, or NULL with at least one error
 * in diags; every error is file:line:col with a message that says what to change. */
struct test_case *case_load(const char *path, struct diag_list *diags);
/* The reference run of a case whose checks name a reference kernel: the case file loaded
 * again with that kernel as its one step, at every shape the case runs at on devices and
 * under a simulator, named "NAME (reference)", its outputs kept for the case's runs to be
 * compared with. NULL with errors in diags; NULL and no error where the case has no
 * reference kernel. */
struct test_case *case_load_reference(const struct test_case *tc, struct diag_list *diags);
/* Whether a check's expected values come from the other targets' runs or a reference
 * kernel's, so its outputs are kept and compared after the runs. */
bool check_compared_later(const struct check *ck);
/* The same for a case held in memory: `path` names it in diagnostics and kernel files are
 * looked for from its folder, as if the text were a file there. */
struct test_case *case_load_text(const char *path, const char *text, struct diag_list *diags);
void case_free(struct test_case *tc);
/* Forgets the case's output checks: a run then compares nothing, for a search that looks
 * only for a simulator's findings at inputs and shapes no reference was written for. */
void case_drop_checks(struct test_case *tc);
/* Frees what a step holds (not the step itself). */
void case_free_step(struct step *st);
/* Bytes of one element of a buffer: its lanes (a 3-vector's padding too), or its struct. */
size_t buffer_element_bytes(const struct buffer_decl *buf);

/* The name a case is known by: its path below the last "cases/" folder, without
 * ".yaml" (cases/reduce/halving.yaml -> reduce/halving). Caller frees. */
char *case_name_from_path(const char *path);

/* How a shape given for a case is written, for the message of one whose dimensions are
 * not the case's: as an option ("--size 4097x4097") or in YAML ("[4097, 4097]"). */
enum shape_spelling { SHAPE_AS_OPTION, SHAPE_AS_YAML };
/* Whether `given`, a size N (local false) or a work-group shape L (local true) written
 * where `where` says ("--size", "sizes: of check square"), has the dimensions tc
 * launches: NULL when it does, else a message (caller frees) naming those dimensions and
 * how to write it with them. A shape is never padded with 1s behind its writer's back: a
 * 2-D transpose given N=64 would run a 64 x 1 matrix, where a copy is a transpose. */
char *case_shape_mismatch(const struct test_case *tc, bool local, const struct shape *given,
			  const char *where, enum shape_spelling spelling);

#endif
