/* backend_device.c - the real-device backend: every device of every platform the ICD
 * loader lists, except simulators, which are backends of their own. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exec/backend.h"
#include "exec/worker.h"
#include "exec/clexec.h"
#include "exec/icd.h"
#include "exec/ocl.h"

static int is_real_platform(const char *platform_name)
{
	return strcasestr(platform_name, "oclgrind") == NULL;
}

/* Whether an ICD file's library is PoCL's. */
static bool names_pocl(const char *library)
{
	const char *slash = strrchr(library, '/');
	return strncmp(slash ? slash + 1 : library, "libpocl.so", 10) == 0;
}

/* Maps PoCL's library, where a vendor file names it. */
static void preload_pocl(const char *library, void *ctx)
{
	(void)ctx;
	if (names_pocl(library))
		(void)dlopen(library, RTLD_NOW | RTLD_LOCAL);
}

/* PoCL's library, with the LLVM and Clang it links, takes 20 to 30 ms to map and link
 * here, in every worker that loads it, and grading starts a worker for each phase of
 * each student. Mapped once in the parent before it forks, each worker finds it loaded.
 * Only PoCL's, which the ICD files name: loading it starts no thread and opens no device
 * (its devices start at the first OpenCL call, in the worker). Other drivers are not
 * known to keep to that, so they load in workers alone, where a fault in one costs a
 * worker. The handle is kept: the library stays for the parent's lifetime. */
static void device_preload(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	icd_each_library(preload_pocl, NULL);
}

/* PoCL compiles a work-group function for each local size, global offset kind and
 * grid size a kernel is launched with, when its first launch of that shape comes, as
 * PoCL's documentation of POCL_WORK_GROUP_SPECIALIZATION says. A case that tries three
 * work-group sizes at three sizes so compiles each kernel several times over. A run that
 * checks outputs needs no code specialised to each shape, only right code, so it asks
 * PoCL for one generic function a kernel: a cold catalogue took 34.6 s against 45.7 s,
 * side by side (tools/bench-catalogue). A timed run keeps PoCL's default, the code an
 * application gets. A value the user set is kept. */
static void device_prepare_worker(const struct worker_setup *setup)
{
	if (!setup->timed)
		setenv("POCL_WORK_GROUP_SPECIALIZATION", "0", 0);
	/* PoCL links what it compiles into its cache and loads it from there: a run of its
	 * own compiles into a folder of its own. */
	if (setup->private_cache) {
		char *pocl = xasprintf("%s/pocl", setup->private_cache);
		setenv("POCL_CACHE_DIR", pocl, 1);
		free(pocl);
	}
}

static int device_list(struct target **targets, size_t *count, char **cause)
{
	return ocl_list_targets(is_real_platform, targets, count, cause);
}

static int device_open(const struct target *target, struct backend_session **session, char **cause)
{
	/* What a kernel prints is its run's to show, apart from what the driver says. */
	worker_stdout_apart();
	return clexec_open(target, true, (struct clexec **)session, cause);
}

static int device_build(struct backend_session *session, const struct test_case *tc,
			unsigned *cached, struct result *failure)
{
	return clexec_build((struct clexec *)session, tc, "", cached, failure);
}

static int device_execute(struct backend_session *session, const struct test_case *tc,
			  const struct plan *plan, void *const *initial, void **final,
			  unsigned repeat, uint64_t *round_ns, const struct finding_list *settled,
			  struct result *failure)
{
	return clexec_execute((struct clexec *)session, tc, plan, initial, final, repeat, round_ns,
			      failure);
}

static int device_inspect(struct backend_session *session, const char *path, const char *kernel,
			  const char *options, struct kernel_sig *sig, struct result *failure)
{
	return clexec_inspect((struct clexec *)session, path, kernel, "", options, sig, failure);
}

static void device_close(struct backend_session *session)
{
	clexec_close((struct clexec *)session);
}

const struct backend backend_device = {
	.name = "device",
	.capabilities = CAN_TIME | CAN_RUN_NATIVE_CODE,
	.preload = device_preload,
	.prepare_worker = device_prepare_worker,
	.list_targets = device_list,
	.open = device_open,
	.build = device_build,
	.execute = device_execute,
	.inspect = device_inspect,
	.close = device_close,
};
