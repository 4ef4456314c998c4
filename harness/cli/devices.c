/* devices.c - clharness devices: the OpenCL devices and the simulator a run can use. */
#include "config.h"

#include <string.h>

#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "cli/commands.h"
#include "exec/sandbox.h"
#include "exec/select.h"

static int devices_main(int argc, char **argv);

const struct cli_command cli_devices = {
	.name = "devices",
	.summary = "list the OpenCL devices and the simulator runs can use, with their limits",
	.about = "Lists every OpenCL device the ICD loader finds, by the short name --device "
		 "takes, with its platform, driver and limits, and the Oclgrind simulator; a "
		 "target that cannot run here is listed with the reason.",
	.main = devices_main,
};

static void print_target(const struct target *t)
{
	char local[32], global[32], alloc[32], constant[32];
	printf("%-16s %-9s %s\n", t->name, t->type, t->device);
	if (strcmp(t->type, backend_racecheck.name) == 0)
		printf("%-16s           the device with each kernel rewritten to check its "
		       "accesses in shadow memory (--device racecheck)\n",
		       "");
	printf("%-16s           platform %s, %s, driver %s\n", "", t->platform, t->opencl,
	       t->driver);
	printf("%-16s           %u compute units, work-groups up to %llu%s, local memory %s, "
	       "global memory %s, buffers up to %s\n",
	       "", t->limits.compute_units, (unsigned long long)t->limits.max_work_group,
	       target_can(t, CAN_ONLY_SMALL_SIZES) ? " (raised from Oclgrind's default of 1024)"
						 : "",
	       human_bytes(t->limits.local_mem, local, sizeof local),
	       human_bytes(t->limits.global_mem, global, sizeof global),
	       human_bytes(t->limits.max_alloc, alloc, sizeof alloc));
	printf("%-16s           work-items per dimension %llu x %llu x %llu, constant "
	       "buffers up to %s, double %s, half %s, non-uniform work-groups %s\n",
	       "", (unsigned long long)t->limits.max_work_item[0],
	       (unsigned long long)t->limits.max_work_item[1],
	       (unsigned long long)t->limits.max_work_item[2],
	       human_bytes(t->limits.max_constant, constant, sizeof constant),
	       t->limits.fp64 ? "yes" : "no", t->limits.fp16 ? "yes" : "no",
	       t->limits.non_uniform_std ? "yes" : "no");
}

/* How the workers that run kernels natively (a device's) are confined here. */
static void print_sandbox(void)
{
	struct sandbox_support support;
	sandbox_probe(&support);
	char *shortfall = sandbox_shortfall(&support);
	if (sandbox_switched_off())
		printf("%-16s off: CLHARNESS_SANDBOX=off\n", "sandbox");
	else if (shortfall)
		printf("%-16s partial: %s\n", "sandbox", shortfall);
	else
		printf("%-16s seccomp and Landlock (ABI %d): a device's worker starts no process, "
		       "opens no socket, signals no other process and reaches only its driver's "
		       "and its cases' files\n",
		       "sandbox", support.landlock_abi);
	free(shortfall);
}

static int devices_main(int argc, char **argv)
{
	struct cli_parser p;
	cli_parser_open(&p, &cli_devices, argc, argv);
	char *value;
	int id = cli_next(&p, &value);
	cli_parser_close(&p);
	if (id == CLI_STOP)
		return p.status;
	if (p.next < argc)
		return cli_usage_error("devices takes no arguments, found '%s'", argv[p.next]);
	struct selection sel;
	struct run_options opt = { .repeat = 1 };
	/* Every target, those a run takes only when named (racecheck's) too. */
	char *everything[] = { "all", (char *)backend_racecheck.name };
	selection_open(&sel, everything, 2, NULL, 0, &opt, 60);
	if (sel.count == 0)
		printf("no OpenCL devices: install an OpenCL driver, e.g. the Debian package "
		       "pocl-opencl-icd for the CPU\n");
	for (size_t i = 0; i < sel.count; i++)
		print_target(selection_target(&sel, i));
	for (size_t m = 0; m < sel.nmissing; m++)
		printf("%-16s unavailable: %s\n", selection_missing_name(&sel, m),
		       sel.missing[m].reason);
	selection_free(&sel);
	print_sandbox();
	return 0;
}
