/* session.h - what every grading of an assignment sets up before its first student: the
 * device and the simulator it runs on, the lock timed runs share, and the run limits
 * derived from the reference kernels' own time. The grade command and the mutation of an
 * assignment (whose mutants are graded as students) both grade through one. */
#ifndef CLH_SESSION_H
#define CLH_SESSION_H

#include <stdbool.h>

#include "grade/assignment.h"
#include "grade/grade.h"

struct grading_session {
	struct grade_options opt; /* what grade_submission runs under */
	char *device, *simulator;
	char *lock; /* the timing lock's path */
	/* "a run may take 2 s on pocl-cpu, 2 s on oclgrind after its build (...)", for the
	 * command to print, and the calibration's warning (NULL: none). NULL where the limit
	 * was given. */
	char *limits, *warning;
};

/* How a session grades: `wall_s` fixes every run's limit (0: derived from the reference
 * kernels); `timing_lock`: timed runs wait for the machine to themselves, as a class's
 * speed checks must (mutants' are not asked); `unsandboxed`: --no-sandbox. */
struct session_options {
	const char *device_pattern; /* the device: the first this selects; NULL: any */
	unsigned wall_s;
	bool timing_lock;
	bool unsandboxed;
};

/* Picks the device and, where a simulate check needs it, the simulator; then, unless the
 * limit is fixed, derives the limits from the reference kernels. Returns 0, or -1 with
 * *cause (the caller frees it) saying which target cannot run and why. */
int grading_session_open(struct grading_session *s, const struct assignment *a,
			 const struct session_options *so, char **cause);
void grading_session_close(struct grading_session *s);

#endif
