/* assignment.h - a grading assignment: the kernels a submission must define, and the
 * checks that earn its points (right output on named cases, no race or memory error
 * under the simulator, speed against a reference kernel), with the limits every run
 * of an untrusted submission runs under. */
#ifndef CLH_ASSIGNMENT_H
#define CLH_ASSIGNMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "case/yamlread.h"
#include "exec/backend.h"
#include "source/nativecode.h"

enum grade_kind {
	GRADE_CORRECT,	/* right output on a real device at every size and work-group size */
	GRADE_SIMULATE, /* none of the forbidden findings under the simulator */
	GRADE_SPEED,	/* kernel time on a real device against a reference kernel's */
};

/* One kernel a submission must define, as the assignment declares it. */
struct kernel_proto {
	char *text; /* the prototype as written, for messages */
	char *name;
	struct kernel_sig sig;
};

struct grade_check {
	char *name;
	char *about;
	double points;
	bool hidden; /* reports say pass or fail only */
	enum grade_kind kind;
	char *case_path;     /* resolved: a readable case file */
	struct shape *sizes; /* NULL: the case's own (a simulate check: its sim_sizes) */
	size_t nsizes;
	struct shape *locals; /* NULL: the case's own */
	size_t nlocals;
	struct src_pos sizes_pos, locals_pos; /* where they are written */
	unsigned forbid;    /* GRADE_SIMULATE: bits (1 << enum finding_kind) that fail a run */
	/* GRADE_SIMULATE: the correct checks (indices into assignment.checks) that must pass
	 * for this one to earn anything. With none, each simulated run earns its share only
	 * where its output is right too, so a kernel that does nothing earns nothing. */
	size_t *requires;
	size_t nrequires;
	double full;	    /* GRADE_SPEED: speed (reference time / submission time) earning all
			       the points, */
	double none;	    /* and the speed at or below which it earns none */
	unsigned repeat;    /* GRADE_SPEED: launches timed together in one run */
	unsigned rounds;    /* GRADE_SPEED: runs of each kernel, the fastest kept */
	char *against_path; /* GRADE_SPEED: a case of the same work whose own kernels are
			       the reference (the catalogue's fast ones); NULL: the case's
			       own kernels */
	struct src_pos pos;
};

struct assignment {
	char *path;
	char *name; /* the file's name without .yaml */
	char *about;
	struct kernel_proto *kernels;
	size_t nkernels;
	struct grade_check *checks;
	size_t nchecks;
	double max_points;
	/* Where the simulate checks run: the simulator at the cases' sim_sizes (false), or the
	 * grading device's racecheck target at their sizes (true: a check says target:
	 * racecheck; one assignment's simulate checks share one target). */
	bool simulate_on_racecheck;
	unsigned wall_s;	/* a run's wall-clock limit */
	unsigned cpu_s;		/* a run's CPU-time limit, all its threads together */
	uint64_t address_space; /* a run's address-space limit in bytes */
	/* Native code a submission may hold (bits, 1 << enum native_kind): a course on
	 * inline PTX allows inline assembly, which the sandbox then contains; by default a
	 * submission holding any is refused before it is built. */
	unsigned allow;
};

/* Loads and validates an assignment, and every case its checks name: each case's
 * kernels must be ones the assignment declares, with the parameters its prototype says.
 * Returns NULL with every mistake in diags as file:line:col. */
struct assignment *assignment_load(const char *path, struct diag_list *diags);
/* The same for an assignment held in memory: `path` names it in diagnostics and its
 * cases are looked for from its folder, as if the text were a file there. */
struct assignment *assignment_load_text(const char *path, const char *text,
					struct diag_list *diags);
void assignment_free(struct assignment *a);

const char *grade_kind_name(enum grade_kind kind);

/* Parses a kernel prototype, "kernel void name(global const float *in, uint n)", into
 * its name and parameters. Returns -1 with *why (caller frees) when it is not one. */
int kernel_proto_parse(const char *text, char **name, struct kernel_sig *sig, char **why);

/* Whether a kernel's parameters, as a driver describes them, are those declared: the
 * same count, memory spaces and types (names and const do not matter). Returns NULL when
 * they are, else what differs (caller frees). */
char *kernel_sig_mismatch(const struct kernel_sig *declared, const struct kernel_sig *actual);

/* The assignment's kernel that step `s` of `tc` runs, or NULL: the one of the step's
 * kernel's name, else, for a case of one step, the assignment's only kernel. */
const struct kernel_proto *assignment_kernel_of_step(const struct assignment *a,
						     const struct test_case *tc, size_t s);
/* Switches every step of `tc` that runs one of the assignment's kernels to the
 * submission at `path`. A case of one step whose kernel the assignment does not name
 * runs the assignment's only kernel. */
void assignment_substitute(const struct assignment *a, struct test_case *tc, const char *path);

#endif
