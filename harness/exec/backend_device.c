/* backend_device.c - the real-device backend: every device of every platform the ICD
 * loader lists, except simulators, which are backends of their own. */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "exec/backend.h"
#include "exec/clexec.h"
#include "exec/ocl.h"

static int is_real_platform(const char *platform_name)
{
	return strcasestr(platform_name, "oclgrind") == NULL;
}

static int device_list(struct target **targets, size_t *count, char **cause)
{
	return ocl_list_targets(is_real_platform, targets, count, cause);
}

static int device_open(const struct target *target, struct backend_session **session, char **cause)
{
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
	return clexec_inspect((struct clexec *)session, path, kernel, options, sig, failure);
}

static void device_close(struct backend_session *session)
{
	clexec_close((struct clexec *)session);
}

const struct backend backend_device = {
	.name = "device",
	.list_targets = device_list,
	.open = device_open,
	.build = device_build,
	.execute = device_execute,
	.inspect = device_inspect,
	.close = device_close,
};
