/* pool.c - jobs in child processes, a few at a time (pool.h). */
#include "config.h"

#include "base/pool.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/interrupt.h"

struct running {
	pid_t pid;
	int fd;
	size_t index;
	struct strbuf got;
};

struct child_job {
	const struct pool *p;
	size_t index;
};

/* The pipe to the parent, in a job's child. */
static int job_fd = -1;

void pool_job_end(const struct strbuf *out)
{
	if (out->data && !write_all(job_fd, out->data, out->len))
		_exit(3);
	/* _exit, not a return: the parent's atexit handlers are not this child's. */
	_exit(0);
}

static void run_job(void *ctx, int fd)
{
	const struct child_job *job = ctx;
	struct strbuf out = { 0 };
	job_fd = fd;
	job->p->work(job->p->ctx, job->index, &out);
	pool_job_end(&out);
}

size_t pool_run(const struct pool *p, size_t n)
{
	unsigned jobs = p->jobs ? p->jobs : 1;
	struct running *running = xcalloc(jobs, sizeof *running);
	size_t nrunning = 0, next = 0, done = 0;
	while ((next < n && !interrupt_signal()) || nrunning > 0) {
		while (next < n && nrunning < jobs && !interrupt_signal()) {
			int *others = xcalloc(nrunning + 1, sizeof *others);
			for (size_t i = 0; i < nrunning; i++)
				others[i] = running[i].fd;
			struct child_job job = { p, next };
			int fd;
			pid_t pid = child_start(run_job, &job, others, nrunning, &fd);
			free(others);
			running[nrunning++] = (struct running){ .pid = pid, .fd = fd, .index = next++ };
		}
		if (nrunning == 0)
			continue;
		struct pollfd *pfds = xcalloc(nrunning, sizeof *pfds);
		for (size_t i = 0; i < nrunning; i++)
			pfds[i] = (struct pollfd){ .fd = running[i].fd, .events = POLLIN };
		while (poll(pfds, nrunning, -1) < 0 && errno == EINTR && !interrupt_signal())
			;
		for (size_t i = nrunning; i-- > 0;) {
			if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char chunk[4096];
			ssize_t got = read(running[i].fd, chunk, sizeof chunk);
			if (got > 0) {
				strbuf_append(&running[i].got, chunk, (size_t)got);
				continue;
			}
			if (got < 0 && errno == EINTR)
				continue;
			int status = 0;
			while (waitpid(running[i].pid, &status, 0) < 0 && errno == EINTR)
				;
			interrupt_untrack(running[i].pid);
			close(running[i].fd);
			if (!interrupt_signal()) {
				p->done(p->ctx, running[i].index,
					running[i].got.data ? running[i].got.data : "", status);
				done++;
			}
			strbuf_free(&running[i].got);
			running[i] = running[--nrunning];
		}
		free(pfds);
	}
	free(running);
	return done;
}
