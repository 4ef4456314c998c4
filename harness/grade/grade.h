/* grade.h - grades one student's submission against an assignment: its kernels must be
 * those declared, then every check runs the assignment's cases with the submission in
 * place of the case's kernel file, each run in a worker process of its own under the
 * assignment's limits. */
#ifndef CLH_GRADE_H
#define CLH_GRADE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "grade/assignment.h"
#include "grade/submission.h"
#include "results/result.h"

/* A run's limit derived from the reference kernel: this many times its slowest run, and
 * never less than the floor, which covers a loaded machine's noise. A right but slow
 * kernel (the sample that adds a whole group's inputs in one item) stays well inside. */
#define GRADE_LIMIT_FACTOR  50
#define GRADE_LIMIT_FLOOR_S 2
/* The most a file a grading worker writes may hold: what a submission makes its driver
 * print, or fill a cache with, cannot fill the disk other students' grading needs. */
#define GRADE_FILE_SIZE_LIMIT ((uint64_t)256 << 20)

struct grade_options {
	const char *device;    /* the real device's name, for correct and speed checks */
	const char *simulator; /* the simulator's name, for simulate checks */
	/* A run's wall-clock limit, fixed (--timeout); 0: the assignment's for builds, and
	 * after the build the limits grade_calibrate derived, where set. */
	unsigned wall_s;
	unsigned device_run_s, simulator_run_s, speed_run_s;
	char *device_run_why, *simulator_run_why, *speed_run_why; /* for timeouts' messages */
	/* A file locked, exclusively around timed runs and shared around the others, so
	 * graders side by side never run beside another's timed run; NULL: none. */
	const char *speed_lock;
	/* --no-sandbox: submissions run unconfined, as the instructor asked explicitly. */
	bool unsandboxed;
};

struct check_grade {
	double points;	   /* earned */
	size_t passed;	   /* runs that passed */
	size_t runs;	   /* runs that count (a work-group size a device refuses does not) */
	double speed;	   /* GRADE_SPEED: reference kernel time / submission's; 0: not timed */
	char *summary;	   /* one line: "8 of 9 runs right", "0.93 of the reference's speed" */
	unsigned verdicts; /* bits (1 << enum verdict) of the failed runs' verdicts */
	/* A run the sandbox stopped for a system call it forbids: a crash, counted here rather
	 * than in verdicts, so the class table names it. */
	bool sandboxed;
	/* The first run that hung or crashed: its verdict and launch ("N=1024 L=32", "its
	 * build"), which the class table names; NULL: none did. */
	enum verdict stopped;
	char *stopped_at;
	struct diag_list diags; /* what went wrong, at the submission's lines where known */
};

struct student_grade {
	char *student;
	char *submission; /* the .cl file graded; NULL when there was none */
	double total;
	/* Why no check could run (does not build, a kernel is missing or has other
	 * parameters): every check then earns 0. NULL when the checks ran. */
	char *blocker;
	enum verdict blocker_verdict;	/* build-error, case-error, timeout, crash */
	struct diag_list blocker_diags; /* the first build error at its line, or the message */
	char *blocker_log;		/* the build log, or what the worker printed; NULL: none */
	struct check_grade *checks;	/* one per check of the assignment */
	size_t nchecks;
	/* Bits (1 << enum verdict) of failed runs known only as a whole: a report read back
	 * names the timeouts and crashes of its hidden checks without saying which. */
	unsigned verdicts;
	/* The class table's words for what happened, where no verdict's name says it:
	 * "inline-assembly" or "function-pointers" (refused before it was built), "sandbox"
	 * (a run stopped for a system call the sandbox forbids), and for a blocked
	 * submission what blocked it: "include refused: helpers.h", "2 .cl files: a.cl,
	 * b.cl", "signature: parameter 1", "no kernel scan_blocks"; NULL: none. */
	char *note;
	/* FNV-1a of the submission's kernel file as graded (0: none), so --resume can tell a
	 * report of the file handed in now from one of an earlier hand-in. */
	uint64_t source_hash;
};

/* The fingerprint of the file at `path` that student_grade.source_hash keeps; 0 when it
 * cannot be read. */
uint64_t submission_hash(const char *path);

/* Derives the limits of runs after their build from the reference kernels' own time:
 * runs every check's case with its own kernels at the check's sizes on the device and
 * the simulator, as a submission would run, and allows each kind of run a multiple of
 * the slowest, with a floor. A kind whose reference runs fail keeps the assignment's
 * wall-clock limit, and `note` (caller frees) says why; NULL when all were derived. */
void grade_calibrate(const struct assignment *a, struct grade_options *opt, char **note);
/* Frees what grade_calibrate set. */
void grade_options_free(struct grade_options *opt);

/* Grades a student's submission. Never fails: a submission that cannot be graded gets 0
 * points with the reason in g->blocker: its problem (a folder without a .cl file), an
 * #include that reaches outside the student's folder, a build error, kernels other than
 * the assignment's. */
void grade_submission(const struct assignment *a, const struct grade_options *opt,
		      const struct submission *sub, struct student_grade *g);
/* A grade of 0 for every check, with nothing said yet. */
void student_grade_init(const struct assignment *a, const char *student, const char *path,
			struct student_grade *g);
/* A grade of 0 for every check, with `why` as the blocker. */
void grade_blocked(const struct assignment *a, const char *student, const char *path,
		   enum verdict verdict, const char *why, struct student_grade *g);

/* Whether check `c` passed: every run right, or every point earned. */
bool check_grade_passed(const struct grade_check *c, const struct check_grade *cg);

/* Points rounded the way reports show them, so the same runs give the same score. */
double grade_round(double points);

void student_grade_free(struct student_grade *g);

#endif
