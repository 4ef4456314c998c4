/* session.c - the targets and limits a grading runs under (session.h). */
#include "config.h"

#include "grade/session.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/select.h"

/* The first device `device_pattern` selects, and the simulator where the assignment's
 * simulate checks need one; -1 with *cause where one cannot run. */
static int pick_targets(struct grading_session *s, const struct assignment *a,
			const char *device_pattern, char **cause)
{
	bool needs_simulator = false;
	for (size_t i = 0; i < a->nchecks; i++)
		needs_simulator |= a->checks[i].kind == GRADE_SIMULATE;
	bool racecheck = a->simulate_on_racecheck;
	struct run_options opt = { .repeat = 1 };
	/* The simulate checks' target: the simulator, or the grading device instrumented. */
	char *finder = !racecheck	? xstrdup("oclgrind")
		       : device_pattern ? xasprintf("%s+racecheck", device_pattern)
					: xstrdup("racecheck");
	char *patterns[] = { (char *)(device_pattern ? device_pattern : "all"), finder };
	struct selection sel;
	selection_open(&sel, patterns, 2, NULL, 0, &opt, 60);
	for (size_t t = 0; t < sel.count; t++) {
		const struct target *target = selection_target(&sel, t);
		/* Correctness and speed are graded where kernel times are the kernel's own;
		 * the simulate checks where findings are made, on the target asked for. */
		bool finds = target_can(target, CAN_FIND) &&
			     target_can(target, CAN_ONLY_SMALL_SIZES) != racecheck;
		if (finds && s->simulator == NULL)
			s->simulator = xstrdup(target->name);
		else if (target_can(target, CAN_TIME) && s->device == NULL)
			s->device = xstrdup(target->name);
	}
	free(finder);
	struct strbuf why = { 0 };
	for (size_t m = 0; m < sel.nmissing; m++)
		strbuf_printf(&why, "; %s: %s", sel.missing[m].backend->name,
			      sel.missing[m].reason);
	int status = 0;
	if (s->device == NULL) {
		*cause = xasprintf("no OpenCL device %s%s to grade on%s",
				   device_pattern ? "matches " : "",
				   device_pattern ? device_pattern : "",
				   why.data ? why.data : " (see clharness devices)");
		status = -1;
	} else if (needs_simulator && s->simulator == NULL) {
		*cause = xasprintf("%s's simulate checks need %s, which cannot run here%s", a->name,
				   racecheck ? "a racecheck target of the grading device"
					     : "Oclgrind",
				   why.data ? why.data : "");
		status = -1;
	}
	strbuf_free(&why);
	selection_free(&sel);
	return status;
}

int grading_session_open(struct grading_session *s, const struct assignment *a,
			 const struct session_options *so, char **cause)
{
	*s = (struct grading_session){ 0 };
	*cause = NULL;
	if (pick_targets(s, a, so->device_pattern, cause) < 0)
		return -1;
	/* One lock for every grader of this user on this machine, so that two classes graded
	 * at once do not slow each other's timed runs either. */
	const char *tmp = getenv("TMPDIR");
	if (so->timing_lock)
		s->lock = xasprintf("%s/clharness-timing-%u.lock", tmp && *tmp ? tmp : "/tmp",
				    (unsigned)getuid());
	s->opt = (struct grade_options){ .device = s->device,
					 .simulator = s->simulator,
					 .wall_s = so->wall_s,
					 .speed_lock = s->lock,
					 .unsandboxed = so->unsandboxed };
	if (so->wall_s > 0)
		return 0;
	grade_calibrate(a, &s->opt, &s->warning);
	struct strbuf text = { 0 };
	strbuf_printf(&text, "a run may take %u s on %s",
		      s->opt.device_run_s ? s->opt.device_run_s : a->wall_s, s->device);
	if (s->simulator)
		strbuf_printf(&text, ", %u s on %s",
			      s->opt.simulator_run_s ? s->opt.simulator_run_s : a->wall_s,
			      s->simulator);
	strbuf_printf(&text,
		      " after its build (%d times the reference kernel's slowest run, at least "
		      "%d s)",
		      GRADE_LIMIT_FACTOR, GRADE_LIMIT_FLOOR_S);
	s->limits = strbuf_take(&text);
	return 0;
}

void grading_session_close(struct grading_session *s)
{
	grade_options_free(&s->opt);
	free(s->device);
	free(s->simulator);
	free(s->lock);
	free(s->limits);
	free(s->warning);
	*s = (struct grading_session){ 0 };
}
