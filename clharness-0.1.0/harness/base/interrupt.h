/* interrupt.h - termination signals (SIGINT, SIGTERM, SIGHUP) to the parent: every child
 * process is ended at once, and the parent's loops stop, so that what was finished is
 * still reported. Children die with their parent whatever ends it. */
#ifndef CLH_INTERRUPT_H
#define CLH_INTERRUPT_H

#include <sys/types.h>

/* In the parent: handles the termination signals from now on. Blocking calls then fail
 * with EINTR when one arrives, and their callers check interrupt_signal(). */
void interrupt_install(void);
/* The termination signal received, or 0. */
int interrupt_signal(void);
/* In the parent, after a fork: `pid` is killed when a termination signal arrives, until
 * it is untracked (when it has been reaped). At most a few hundred at once. */
void interrupt_track(pid_t pid);
void interrupt_untrack(pid_t pid);
/* In a child, straight after the fork: the default handlers again, nothing tracked, and
 * SIGKILL when the parent dies, so that no worker outlives a killed harness (a hanging
 * kernel would otherwise run for ever). */
void interrupt_in_child(pid_t parent);

#endif
