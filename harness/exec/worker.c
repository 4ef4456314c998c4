/* worker.c - child processes that run OpenCL work and report back in frames. */
#include "config.h"

#include "exec/worker.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/interrupt.h"

/* AddressSanitizer reserves terabytes of address space for its shadow memory, so under it
 * an address-space limit would fail every allocation: the limit is left off. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

bool worker_limits_address_space(void)
{
	return !UNDER_ASAN;
}

#if UNDER_ASAN
/* Read by the ASan runtime at start-up, in the parent and every worker. A kernel that
 * faults on a CPU device kills its worker with SIGSEGV, which the parent reports as that
 * run's crash: ASan must let the signal through rather than turn it into exit status 1. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:detect_leaks=1";
}

/* What the OpenCL drivers and the ICD loader keep allocated until their process ends is
 * theirs, not a leak of the harness. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libpocl\nleak:libOpenCL\nleak:liboclgrind\nleak:libLLVM\nleak:libclang-cpp\n";
}
#endif

/* In the child: applies the limits; a soft CPU limit sends SIGXCPU, whose default action
 * ends the process, and the hard one a second later SIGKILL, for a child that ignores it. */
static void apply_limits(const struct worker_limits *limits)
{
	if (limits == NULL)
		return;
	if (limits->cpu_s > 0) {
		struct rlimit cpu = { limits->cpu_s, limits->cpu_s + 1 };
		setrlimit(RLIMIT_CPU, &cpu);
	}
	if (limits->address_space > 0 && worker_limits_address_space()) {
		struct rlimit as = { limits->address_space, limits->address_space };
		setrlimit(RLIMIT_AS, &as);
	}
	if (limits->file_size > 0) {
		struct rlimit fsize = { limits->file_size, limits->file_size };
		signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead of killing */
		setrlimit(RLIMIT_FSIZE, &fsize);
	}
}

int worker_start(struct worker *w, const struct worker_limits *limits,
		 void (*fn)(void *arg, int fd, int control), void *arg, char **cause)
{
	*w = (struct worker){ .pid = -1, .fd = -1, .control_fd = -1, .output_fd = -1 };
	w->output_fd = anon_file("worker-output");
	if (w->output_fd < 0) {
		*cause = xasprintf("cannot make a file for the worker's output: %s",
				   strerror(errno));
		return -1;
	}
	int fds[2], control[2];
	if (pipe(fds) < 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		close(w->output_fd);
		return -1;
	}
	if (pipe(control) < 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		close(w->output_fd);
		return -1;
	}
	/* Buffered output would otherwise be written twice, once by each process. */
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		*cause = xasprintf("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		close(control[0]);
		close(control[1]);
		close(w->output_fd);
		return -1;
	}
	if (pid == 0) {
		interrupt_in_child(parent);
		close(fds[0]);
		close(control[1]);
		dup2(w->output_fd, STDOUT_FILENO);
		dup2(w->output_fd, STDERR_FILENO);
		/* Unbuffered, so what a driver prints just before it crashes is not lost. */
		setvbuf(stdout, NULL, _IONBF, 0);
		apply_limits(limits);
		fn(arg, fds[1], control[0]);
		close(fds[1]);
		/* _exit: the parent's atexit handlers and stdio buffers are not the child's. */
		_exit(0);
	}
	interrupt_track(pid);
	close(fds[1]);
	close(control[0]);
	w->pid = pid;
	w->fd = fds[0];
	w->control_fd = control[1];
	return 0;
}

int worker_command(struct worker *w, uint32_t command)
{
	return write_all_to_pipe(w->control_fd, &command, sizeof command) ? 0 : -1;
}

int worker_receive(int control, uint32_t *command)
{
	size_t done = 0;
	while (done < sizeof *command) {
		ssize_t n = read(control, (char *)command + done, sizeof *command - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

enum worker_event worker_next(struct worker *w, uint64_t deadline_ns, enum frame_type *type,
			      const char **payload, size_t *len)
{
	for (;;) {
		if (w->consumed > 0 && w->consumed == w->inbox.len) {
			w->inbox.len = 0;
			w->consumed = 0;
		}
		if (w->inbox.len > w->consumed) {
			long whole = wire_split(w->inbox.data + w->consumed,
						w->inbox.len - w->consumed, type, payload, len);
			if (whole < 0)
				return WORKER_GARBLED;
			if (whole > 0) {
				w->consumed += (size_t)whole;
				return WORKER_FRAME;
			}
		}
		if (w->eof)
			return WORKER_GONE;

		uint64_t now = clock_now_ns();
		if (now >= deadline_ns)
			return WORKER_TIMEOUT;
		uint64_t wait_ms = (deadline_ns - now) / 1000000 + 1;
		struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
		int ready = poll(&pfd, 1, wait_ms > 60000 ? 60000 : (int)wait_ms);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			continue; /* the deadline check above decides */

		/* Compact before reading so the inbox does not grow with a long run. */
		if (w->consumed > 0) {
			memmove(w->inbox.data, w->inbox.data + w->consumed,
				w->inbox.len - w->consumed);
			w->inbox.len -= w->consumed;
			w->consumed = 0;
		}
		char chunk[65536];
		ssize_t n = read(w->fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->eof = true;
		else
			strbuf_append(&w->inbox, chunk, (size_t)n);
	}
}

char *worker_finish(struct worker *w, bool kill_it)
{
	return worker_finish_end(w, kill_it, NULL);
}

char *worker_finish_end(struct worker *w, bool kill_it, struct worker_end *end)
{
	char *how = NULL;
	if (end)
		*end = (struct worker_end){ 0 };
	if (w->pid > 0) {
		if (kill_it)
			kill(w->pid, SIGKILL);
		int status = 0;
		struct rusage usage = { 0 };
		while (wait4(w->pid, &status, 0, &usage) < 0 && errno == EINTR)
			;
		interrupt_untrack(w->pid);
		if (end) {
			end->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
			end->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
			end->cpu_s = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
				     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
		}
		if (WIFSIGNALED(status))
			how = xasprintf("killed by signal %d (%s)", WTERMSIG(status),
					strsignal(WTERMSIG(status)));
		else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
			how = xasprintf("exited with status %d", WEXITSTATUS(status));
	}
	if (w->fd >= 0)
		close(w->fd);
	if (w->control_fd >= 0)
		close(w->control_fd);
	if (w->output_fd >= 0)
		close(w->output_fd);
	strbuf_free(&w->inbox);
	*w = (struct worker){ .pid = -1, .fd = -1, .control_fd = -1, .output_fd = -1 };
	return how;
}

/* Both read stderr, which stays on the output file when stdout is sent elsewhere. */
long long worker_output_offset(void)
{
	off_t size = lseek(STDERR_FILENO, 0, SEEK_END);
	return size > 0 ? (long long)size : 0;
}

char *worker_own_output(long long offset)
{
	return read_fd_from(STDERR_FILENO, offset);
}

void worker_stdout_apart(void)
{
	int fd = anon_file("kernel-stdout");
	if (fd < 0) {
		redirect_to_null(STDOUT_FILENO);
		return;
	}
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	close(fd);
}

long long worker_stdout_offset(void)
{
	off_t size = lseek(STDOUT_FILENO, 0, SEEK_END);
	return size >= 0 ? (long long)size : -1;
}

char *worker_stdout_since(long long offset, size_t max)
{
	long long end = offset >= 0 ? worker_stdout_offset() : -1;
	if (end <= offset)
		return NULL;
	size_t len = (size_t)(end - offset);
	size_t kept = len > max ? max : len;
	char *text = xcalloc(kept + 96, 1);
	ssize_t n = pread(STDOUT_FILENO, text, kept, offset);
	if (n <= 0) {
		free(text);
		return NULL;
	}
	if ((size_t)n < len)
		snprintf(text + n, 96, "%s[... %zu more bytes]\n", text[n - 1] == '\n' ? "" : "\n",
			 len - (size_t)n);
	return text;
}

void worker_mark_output(struct worker *w, long long offset)
{
	w->output_mark = offset;
}

char *worker_output_tail(struct worker *w, size_t max)
{
	off_t size = w->output_fd >= 0 ? lseek(w->output_fd, 0, SEEK_END) : -1;
	if (size <= w->output_mark)
		return NULL;
	off_t start = size - w->output_mark > (off_t)max ? size - (off_t)max : w->output_mark;
	char *text = xcalloc((size_t)(size - start) + 1, 1);
	ssize_t n = pread(w->output_fd, text, (size_t)(size - start), start);
	if (n <= 0) {
		free(text);
		return NULL;
	}
	text[n] = '\0';
	char *from = text;
	if (start > w->output_mark && strchr(text, '\n'))
		from = strchr(text, '\n') + 1;
	char *tail = xstrdup(from);
	free(text);
	return tail;
}

void worker_send(int fd, struct strbuf *frames)
{
	if (!write_all(fd, frames->data, frames->len))
		_exit(3); /* the parent is gone: nobody is left to report to */
	frames->len = 0;
}
