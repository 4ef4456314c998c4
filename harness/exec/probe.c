/* probe.c - a launch's cost under the simulator, from a few of its work-groups. */
#include "config.h"

#include "exec/probe.h"

#include "exec/select.h"

static void take_probe(void *ctx, struct result *r)
{
	struct sim_probe *p = ctx;
	p->ended = r->verdict != VERDICT_TIMEOUT && r->verdict != VERDICT_CRASH &&
		   r->verdict != VERDICT_SKIP && r->verdict != VERDICT_BUILD_ERROR &&
		   r->verdict != VERDICT_CASE_ERROR;
	p->seconds = r->run_ns / 1e9;
}

void sim_probe_run(struct test_case *tc, unsigned limit_s, struct sim_probe *out)
{
	*out = (struct sim_probe){ 0 };
	case_drop_checks(tc);
	char *simulator[] = { "oclgrind" };
	struct run_options opt = { .repeat = 1 };
	struct selection sel;
	selection_open(&sel, simulator, 1, &tc, 1, &opt, limit_s);
	for (size_t t = 0; t < sel.count; t++)
		selection_run(&sel, t, take_probe, out);
	out->ran = sel.count > 0;
	selection_free(&sel);
}

bool sim_probe_too_costly(const struct sim_probe *p, double scale, unsigned timeout_s,
			  double *whole_s)
{
	*whole_s = p->seconds * scale;
	return p->ran && (!p->ended || *whole_s > timeout_s / 2.0);
}
