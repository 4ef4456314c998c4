/* case_launches.c - prints, for each case given, the launch of each kernel it runs at the
 * case's first simulated shape (else its first size), as `clharness check` takes it:
 * FILE<TAB>KERNEL<TAB>GLOBAL<TAB>LOCAL<TAB>OPTIONS, one line a kernel, the first launch of
 * each. tests/checkall.sh checks every correct catalogue kernel so, with nothing but its
 * launch given.
 * Usage: case_launches CASE.yaml... */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "case/plan.h"
#include "case/testcase.h"

static void launch_text(const size_t *extent, unsigned dims, char *out, size_t size)
{
	size_t used = 0;
	for (unsigned d = 0; d < dims; d++)
		used += (size_t)snprintf(out + used, size - used, "%s%zu", d ? "x" : "", extent[d]);
}

static int print_launches(const char *path)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(path, &diags);
	if (tc == NULL) {
		fprintf(stderr, "case_launches: %s does not load\n", path);
		diag_list_free(&diags);
		return -1;
	}
	const struct shape *n = tc->nsim_sizes ? &tc->sim_sizes[0] : &tc->sizes[0];
	const struct shape *l = tc->nsim_sizes && tc->nsim_locals ? &tc->sim_locals[0]
								  : &tc->locals[0];
	struct plan plan;
	int status = plan_build(tc, n, l, 1, &plan, &diags);
	for (size_t i = 0; status == 0 && i < plan.nlaunches; i++) {
		const struct plan_launch *launch = &plan.launches[i];
		const struct step *st = &tc->steps[launch->step];
		bool seen = false;
		for (size_t j = 0; j < i; j++) {
			const struct step *earlier = &tc->steps[plan.launches[j].step];
			seen |= strcmp(earlier->kernel_path, st->kernel_path) == 0 &&
				strcmp(earlier->kernel_name, st->kernel_name) == 0;
		}
		if (seen)
			continue;
		char global[SHAPE_TEXT_MAX], local[SHAPE_TEXT_MAX];
		launch_text(launch->global, launch->dims, global, sizeof global);
		launch_text(launch->local, launch->dims, local, sizeof local);
		printf("%s\t%s\t%s\t%s\t%s\n", st->kernel_path, st->kernel_name, global, local,
		       tc->options ? tc->options : "");
	}
	if (status == 0)
		plan_free(&plan);
	else
		fprintf(stderr, "case_launches: %s does not plan at its first shape\n", path);
	diag_list_free(&diags);
	case_free(tc);
	return status;
}

int main(int argc, char **argv)
{
	int status = 0;
	for (int i = 1; i < argc; i++)
		status |= print_launches(argv[i]) != 0;
	return status;
}
