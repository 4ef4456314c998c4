/* mutate.h - mutation testing: the classic GPU mistakes seeded into a correct kernel,
 * one at a time (source/mutsites.h finds where), and each mutant judged by the same
 * checks as the original. A case's mutant runs through the case's targets and golden
 * as `clharness run` runs it; an assignment's (the reference solution's mutants, graded
 * as students) is judged by `clharness mutate` from the grades, check by check. */
#ifndef CLH_MUTATE_H
#define CLH_MUTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "source/mutsites.h"

enum mutant_fate {
	FATE_UNJUDGED,	/* not run (the run was stopped first) */
	FATE_KILLED,	/* a check caught it */
	FATE_SURVIVED,	/* every check passed it */
	FATE_STILLBORN, /* it does not build: no check's merit */
	FATE_TIMED_OUT, /* it hung a run, and nothing else caught it */
};

const char *mutant_fate_name(enum mutant_fate f);

struct mutant {
	struct mutation m;
	const char *file; /* the kernel file mutated, as the subject names it */
	char *text;	  /* the mutated source */
	size_t same_as;	  /* the earlier mutant with this very text, or its own index */
	enum mutant_fate fate;
	char *by; /* killed: the check, target and finding or output that caught it; timed
		     out or stillborn: which run and why */
	bool *caught_by; /* an assignment's: per check, whether it lost the mutant points */
	/* An assignment's: the share of the original's points (speed checks aside) the
	 * mutant kept, 0 to 1; -1 for a case's, or where it was not graded. */
	double kept;
};

/* A subject's mutants: the kernel files of a case, or an assignment's reference solution. */
struct mutant_set {
	char *subject; /* the case or assignment file */
	char **files;  /* the kernel files mutated, each once */
	size_t nfiles;
	char **sources; /* their text */
	size_t *lengths;
	struct mutant *items;
	size_t count;
	char **checks; /* an assignment's check names; none for a case */
	size_t nchecks;
};

/* Every mutant of `ops` (bits of mut_operator) in the kernel files of the case at
 * `case_path` (its steps' own kernels; a reference kernel is the check, not the subject),
 * each file parsed with the case's build options. Returns 0; 1 with a note for a racy
 * case (a known-buggy kernel is no subject); -1 with the case's or clang's errors in
 * diags. */
int mutant_set_of_case(const char *case_path, unsigned ops, struct mutant_set *out,
		       struct diag_list *diags);
/* Every mutant of `ops` in the kernel file at `path`, built with `options`, in the
 * kernels named (none: all) and the functions they may call, for a subject judged
 * elsewhere (an assignment's reference solution). */
int mutant_set_of_file(const char *subject, const char *path, const char *options, unsigned ops,
		       char *const *kernels, size_t nkernels, struct mutant_set *out,
		       struct diag_list *diags);
void mutant_set_free(struct mutant_set *s);

/* How a case's mutants run. */
struct case_judging {
	char *const *patterns; /* --device; none: every device and oclgrind */
	size_t npatterns;
	unsigned timeout_s; /* a run with no result for this long is a time-out */
	unsigned jobs;	    /* mutants judged side by side */
	/* Called in the parent as each mutant is judged, in the order they finish. */
	void (*judged)(void *ctx, const struct mutant_set *s, size_t index);
	void *ctx;
};

/* Runs the unmutated case first: where it fails its own golden, says so in diags and
 * returns -1, since its mutants would be killed by what is already wrong. Then judges
 * every mutant (one of each text), `jobs` at a time, each in a child process of its own:
 * killed where any result is not what the golden expects, stillborn where every target
 * fails to build it, timed out where a run hung and nothing else caught it. After a
 * termination signal the mutants not judged stay FATE_UNJUDGED. Returns 0. */
int mutate_case(struct mutant_set *s, const char *case_path, const struct case_judging *j,
		struct diag_list *diags);

/* The score's parts: killed, and all but the stillborn and the unjudged. */
struct mutation_score {
	size_t killed, survived, stillborn, timed_out, unjudged, total;
	size_t weak; /* of the survivors, those that lost some points, though too few */
};
struct mutation_score mutation_score_of(const struct mutant_set *s);
/* Whether m is a weak catch: an assignment's survivor that lost some points, too few. */
bool mutant_weak(const struct mutant *m);
/* killed / (total - stillborn - unjudged), 0 to 1; 1 where none counts. */
double mutation_score_value(const struct mutation_score *sc);

/* Writes each mutant's source to dir/NAME, NAME as mutant_file_name gives it, with a
 * comment on its first line saying which mistake it holds. Returns the number that could
 * not be written. */
size_t mutants_save(const struct mutant_set *s, const char *dir);
/* "halving-m07-barrier-l9.cl": the kernel file's name, the mutant's number, operator and
 * line. The caller frees it. */
char *mutant_file_name(const struct mutant_set *s, size_t index);

#endif
