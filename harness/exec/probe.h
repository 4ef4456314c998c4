/* probe.h - what simulating a launch costs, measured on a few of its work-groups before
 * the whole is given to the simulator: a launch of few items may loop long enough that
 * Oclgrind, 10^3 to 10^4 times slower than a device, cannot finish it in a run's time,
 * which its item count alone does not say. */
#ifndef CLH_PROBE_H
#define CLH_PROBE_H

#include <stdbool.h>

#include "case/testcase.h"

struct sim_probe {
	bool ran;	/* a simulator was there to run it */
	bool ended;	/* it ran to its end within the limit */
	double seconds; /* the run's wall time where it ended */
};

/* Runs `tc` once on the Oclgrind simulator at its simulated shape, its checks dropped,
 * within `limit_s` seconds. */
void sim_probe_run(struct test_case *tc, unsigned limit_s, struct sim_probe *out);

/* Whether a whole launch `scale` times the probed one would take the simulator more than
 * half of `timeout_s`, or the probe did not end; the estimate in *whole_s. */
bool sim_probe_too_costly(const struct sim_probe *p, double scale, unsigned timeout_s,
			  double *whole_s);

#endif
