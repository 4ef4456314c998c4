/* linkbroker.h - runs the system linker for a sandboxed worker's driver.
 *
 * PoCL links each work-group function it compiles into a shared library by running the
 * system linker, through clang's driver, which starts it with posix_spawn and waits with
 * wait4. A sandboxed worker may start no process, so before it is confined it starts a
 * broker, a process of its own; from then on the posix_spawn and wait4 of this file, which
 * the harness's program exports in place of the C library's (Makefile.am), hand the
 * worker's calls to the broker. The broker runs the linker and nothing else, with the
 * options a driver's link takes, on files in the folders the worker may write, confined
 * as the worker is but for the linker's right to run; it ends with the worker. Outside a
 * sandboxed worker both calls are the C library's. */
#ifndef CLH_LINKBROKER_H
#define CLH_LINKBROKER_H

#include <stddef.h>

#include "exec/sandbox.h"

/* The linker a driver's link may run. */
#define LINKBROKER_LINKER "/usr/bin/ld"

/* Starts the broker for a worker about to be confined by `p` under Landlock ABI
 * `landlock_abi` (0: none). Where no linker is installed none starts, and a link fails
 * saying so. Returns 0, or -1 with *cause. */
int linkbroker_start(const struct sandbox_policy *p, int landlock_abi, char **cause);

/* Why the broker refuses to run `path` with `argv` (NULL-terminated), given the real path
 * of the linker and the real paths of the folders a link may write; NULL when it runs it.
 * Caller frees. */
char *linkbroker_refusal(const char *linker, const char *path, char *const argv[],
			 char *const *write_dirs, size_t nwrite);

#endif
