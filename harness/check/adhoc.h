/* adhoc.h - `clharness check`: one kernel checked without writing a case. The arguments
 * a user gives (--arg, each one in the case-file syntax) and those the kernel's signature
 * implies make one case for each of several input sets; every case runs on Oclgrind and
 * every real device, each finding is reported once with the input sets that exposed it,
 * and the outputs of the backends are compared with each other. */
#ifndef CLH_ADHOC_H
#define CLH_ADHOC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "case/record.h"
#include "case/shape.h"
#include "case/testcase.h"
#include "source/kernelsrc.h"
#include "exec/backend.h"
#include "results/report.h"

struct adhoc_request {
	const char *kernel_path; /* as the user gave it */
	const char *kernel;
	struct shape global; /* --global 64x64 */
	struct shape local;  /* --local 16x16, as many dimensions as global */
	char **specs;	     /* --arg texts, in order */
	const char *options; /* build options (-D, -I, -cl-std=...), or NULL */
	/* --expect NAME=FILE or NAME=[v, ...]: the values buffer NAME must hold after the
	 * launch, a data file (an absolute path) or a YAML list. */
	char **expects;
	size_t nexpects;
	size_t nspecs;
	char **patterns; /* --device; none: every device and oclgrind */
	size_t npatterns;
	unsigned timeout_s;
	const char *save_path; /* --save: where the equivalent case file goes */
	const struct suppression_list *suppressions; /* --suppressions: listed, failing nothing */
};

/* The input sets a check runs: the arguments the user left out are filled a different
 * way in each, since some races show only for some values. */
enum input_set {
	SET_RANDOM,   /* seeded random whole numbers; scalars N */
	SET_ZEROS,    /* all zeros; scalars N */
	SET_REPEATS,  /* values 0 to 3, every one repeated many times; scalars N */
	SET_SCALAR_0, /* random buffers, scalars 0 */
	SET_SCALAR_1, /* random buffers, scalars 1 */
	SET_CHECK_COUNT,
	/* Beyond check's five, for hunt: */
	SET_NARROW = SET_CHECK_COUNT, /* values 0 and 1 only: neighbours collide */
	SET_BOUNDARY,		      /* the element type's extremes (for floats +-2^24) */
	SET_SCALAR_MINUS_1,	      /* random buffers, scalars -1 */
	/* Random buffers, scalars N - L / 2: a size half a group short of the launch, so
	 * the last group has items past it. */
	SET_SCALAR_TAIL,
	SET_COUNT,
};

const char *adhoc_set_name(enum input_set set);

/* Whether `set` is one of those that change only the generated scalars. */
bool adhoc_set_is_scalar(enum input_set set);

/* The whole numbers of SET_BOUNDARY for an element type: an integer type's extremes (to
 * +-2^52 for 64-bit ones, which a double must hold), +-2^precision for a float type. */
void adhoc_boundary_range(enum elem_type type, double *lo, double *hi);

/* The values input set `set` gives a buffer of `type` (of structs, where is_record), as
 * an init's kind and range. False for the sets that leave a buffer's values as they are
 * (random, the scalar sets; the extremes for structs, whose fields differ in type). */
bool adhoc_set_values(enum input_set set, enum elem_type type, bool is_record, enum init_kind *kind,
		      double *lo, double *hi);
/* Those values as an init in the case syntax, {fill: 0} or {random_int: [0, 3]}; NULL
 * where the set leaves them. Caller frees. */
char *adhoc_set_init(enum input_set set, enum elem_type type, bool is_record);

/* What a scalar's name says it holds: an extent of the launch (width, cols, nx: the first;
 * height, rows, ny: the second; depth, nz: the third), its number of elements (n, count,
 * size, len), or nothing check can tell. */
enum scalar_role {
	ROLE_UNPLACED,
	ROLE_EXTENT_X,
	ROLE_EXTENT_Y,
	ROLE_EXTENT_Z,
	ROLE_ELEMENTS,
};

/* The role a scalar called `name` takes in a launch of `dims` dimensions: an extent the
 * launch lacks places nothing. */
enum scalar_role adhoc_scalar_role(const char *name, unsigned dims);

/* Where each argument of the kernel comes from: a --arg, or the signature. */
struct adhoc_binding {
	size_t nparams;
	size_t nspecs;
	long long *spec_of;	 /* per parameter: the index of its --arg, or -1 */
	enum scalar_role *roles; /* per scalar the signature makes: what its name places */
	/* Per --arg: its text with a number equal to an extent of the launch, or to its
	 * work-items, written as that (value: 1024 at --global 1024x768 is value: N), so a
	 * shrunk launch scales it; NULL where nothing was rewritten. */
	char **scaled;
	/* A given number equals more than one of the launch's extents and work-items, so
	 * which one it follows is unknown: the simulator runs the launch as given. */
	bool tied_to_shape;
	/* A probe of a few work-groups showed the whole launch too costly to simulate in
	 * time, however few its items: the simulator runs those few groups. */
	bool costly;
	/* No target runs small sizes (racecheck and devices alone): nothing is shrunk. */
	bool unsimulated;
	struct record **records; /* per parameter: its struct's fields where it is one */
	/* The kernel's source as clang reads it (kernelsrc.h), where it could be read:
	 * parameters' places, structs' layouts, local arrays. */
	struct kernel_source source;
	bool have_source;
};

/* Whether the simulator runs a smaller launch than --global, and which (in *simulated):
 * a launch too big to simulate in time is shrunk unless a number given with --arg ties
 * it to the shape in more than one way. */
bool adhoc_shrinks(const struct adhoc_request *rq, const struct adhoc_binding *binding,
		   struct shape *simulated);

/* Binds the --arg texts to the kernel's parameters: one naming a parameter (name: x)
 * binds to it, the others to the next parameters left unbound, in order. A struct
 * parameter left unbound is laid out as clang lays out its type, preprocessed with the
 * build options (or, built without libclang, from its definition's text). Reports each
 * mistake in an --arg as "--arg N: error: ...", and each parameter left unbound that it
 * cannot make at that parameter's place in the kernel's file, saying what to give
 * instead, in diags; returns -1 after any. */
int adhoc_bind(const struct adhoc_request *rq, const struct kernel_sig *sig,
	       struct adhoc_binding *binding, struct diag_list *diags);
void adhoc_binding_free(struct adhoc_binding *binding);

/* Whether `set` differs from the random set here: the scalar sets only where the
 * signature leaves a scalar to generate, the others only where it leaves a buffer; where
 * every argument is given, the random set alone is the one set there is. */
bool adhoc_set_applies(enum input_set set, const struct kernel_sig *sig,
		       const struct adhoc_binding *binding);

/* What check chose for each argument no --arg gives: its value at the request's launch,
 * why (a buffer's count, a local buffer's size, a scalar placed by its name, or one it
 * could not place), and the --arg that gives another. Returns how many, in *out (NULL
 * where every argument is given). */
size_t adhoc_choices(const struct adhoc_request *rq, const struct kernel_sig *sig,
		     const struct adhoc_binding *binding, struct chosen_value **out);

/* Says what check chose (adhoc_choices) on the report's stream, under `command`'s name,
 * in text; into its SARIF and HTML logs in any format. */
void adhoc_say_choices(const struct adhoc_request *rq, const struct kernel_sig *sig,
		       const struct adhoc_binding *binding, struct reporter *rp,
		       const char *command);

/* The case file for input set `set`, with the kernel file named as `kernel_file` (a path
 * that resolves from where the case is loaded or saved). Caller frees. Sets spec_line[i]
 * to the line of --arg i, and spec_line[nspecs + i] to that of --expect i's check, so
 * the loader's diagnostics and the checks' results can be placed in the option. */
char *adhoc_case_text(const struct adhoc_request *rq, const struct kernel_sig *sig,
		      const struct adhoc_binding *binding, enum input_set set,
		      const char *kernel_file, int *spec_line);

/* The kernel's signature, asked of the first simulator the request's patterns select
 * (else the first target), and the --arg texts bound to its parameters. Returns 0; 1
 * after reporting to rp a kernel that does not build or is missing; 2 when nothing can
 * run it or an --arg is wrong (said on stderr). */
int adhoc_prepare(const struct adhoc_request *rq, struct reporter *rp, struct kernel_sig *sig,
		  struct adhoc_binding *binding);

/* How a case saved at `save_path` names the kernel: inside a catalogue, by its path from
 * the catalogue's root (found by the upward search, with no '..' that the loader would
 * refuse); elsewhere, relative to the case. NULL, after saying why on stderr, for a
 * kernel outside the catalogue the case would be saved in. Caller frees. */
char *adhoc_kernel_file_for(const char *save_path, const char *kernel_path);

/* Runs the whole check, reporting to rp. Returns the exit status: 0 when no run failed
 * and no error was found, 1 otherwise, 2 when the check could not be set up. */
int adhoc_run(const struct adhoc_request *rq, struct reporter *rp);

#endif
