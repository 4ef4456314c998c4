/* no_landlock.c - runs a command as on a Linux kernel without Landlock: its three system
 * calls fail with ENOSYS, as where the kernel lacks them, so that sandbox.sh sees what
 * the harness does on such a machine. */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: no_landlock COMMAND [ARGUMENT]...\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc = ctx ? 0 : -ENOMEM;
	const int calls[] = { SCMP_SYS(landlock_create_ruleset), SCMP_SYS(landlock_add_rule),
			      SCMP_SYS(landlock_restrict_self) };
	for (size_t i = 0; rc == 0 && i < sizeof calls / sizeof calls[0]; i++)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), calls[i], 0);
	if (rc == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		rc = -errno;
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0) {
		fprintf(stderr, "no_landlock: cannot load the filter: %s\n", strerror(-rc));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no_landlock: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
