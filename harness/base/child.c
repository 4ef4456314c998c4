/* child.c - a child process that does one job and reports to its parent through a pipe. */
#include "config.h"

#include "base/child.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"

pid_t child_start(void (*job)(void *ctx, int fd), void *ctx, const int *others, size_t n,
		  int *read_fd)
{
	int fds[2];
	if (pipe(fds) < 0) {
		fprintf(stderr, "clharness: pipe: %s\n", strerror(errno));
		exit(2);
	}
	/* What the parent has buffered would otherwise be written twice. */
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "clharness: fork: %s\n", strerror(errno));
		exit(2);
	}
	if (pid == 0) {
		interrupt_in_child(parent);
		close(fds[0]);
		for (size_t i = 0; i < n; i++)
			close(others[i]);
		job(ctx, fds[1]);
		_exit(0);
	}
	interrupt_track(pid);
	close(fds[1]);
	*read_fd = fds[0];
	return pid;
}
