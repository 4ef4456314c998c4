/* child.h - a child process that does one job and reports to its parent through a pipe,
 * ended with the parent (interrupt.h) whatever ends it. */
#ifndef CLH_CHILD_H
#define CLH_CHILD_H

#include <stddef.h>
#include <sys/types.h>

/* Forks a child that runs job(ctx, fd), fd the write end of a pipe, and then exits 0.
 * The read ends the parent holds for its other children (`others`, n of them) are closed
 * in it, so each pipe ends when its own child does. In the parent the child is tracked
 * for termination signals until interrupt_untrack. Returns its pid, with the read end in
 * *read_fd; without a pipe or a process there is no way on, so it says why and exits 2. */
pid_t child_start(void (*job)(void *ctx, int fd), void *ctx, const int *others, size_t n,
		  int *read_fd);

#endif
