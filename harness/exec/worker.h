/* worker.h - child processes that run OpenCL work for the parent and report back in
 * frames, so a kernel that hangs or a driver that crashes costs one worker, not the run. */
#ifndef CLH_WORKER_H
#define CLH_WORKER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "exec/wire.h"

struct worker {
	pid_t pid;
	int fd;
	struct strbuf inbox; /* bytes received and not yet handed out as frames */
	size_t consumed;     /* bytes of inbox already handed out */
	bool eof;
	int control_fd;	       /* commands to the child: see worker_command */
	int output_fd;	       /* an unlinked file holding what the child printed */
	long long output_mark; /* where the current run's output starts in it */
};

/* What a worker may use, so that an untrusted kernel cannot take the machine with it;
 * 0 leaves a limit unset. */
struct worker_limits {
	unsigned cpu_s;		/* CPU time of all its threads together: SIGXCPU ends it */
	uint64_t address_space; /* bytes of virtual memory (RLIMIT_AS) */
	/* Bytes any one file it writes may hold (RLIMIT_FSIZE): what a driver prints and
	 * the caches it fills stay under it, a write past it failing rather than filling
	 * the disk. */
	uint64_t file_size;
};

/* Whether workers run under the address-space limit they are given: not in a build with
 * AddressSanitizer, whose shadow memory alone exceeds any such limit. */
bool worker_limits_address_space(void);

/* Runs fn(arg, fd, control) in a child process under `limits` (NULL: none); fn writes frames to fd
 * with worker_send and may wait for commands on control with worker_receive. What the child prints
 * (drivers print to stdout and stderr) goes to a private file, so it can neither corrupt the
 * parent's TAP or JSON nor interleave with the report; see worker_output_tail. Returns -1 with
 * *cause when fork, pipe or the file fails. */
int worker_start(struct worker *w, const struct worker_limits *limits,
		 void (*fn)(void *arg, int fd, int control), void *arg, char **cause);

/* Sends the child a command, a number it reads with worker_receive. */
int worker_command(struct worker *w, uint32_t command);
/* In the child: waits for a command; -1 when the parent closed the pipe or is gone. */
int worker_receive(int control, uint32_t *command);

/* WORKER_GARBLED: what the child sent is no frame; nothing more can be read from it, and
 * the caller stops it (worker_finish with kill_it). */
enum worker_event { WORKER_FRAME, WORKER_TIMEOUT, WORKER_GONE, WORKER_GARBLED };

/* Waits for the next whole frame until deadline_ns (on clock_now_ns's clock). The frame's
 * payload stays valid until the next call. WORKER_GONE: the child closed its end. */
enum worker_event worker_next(struct worker *w, uint64_t deadline_ns, enum frame_type *type,
			      const char **payload, size_t *len);

/* Kills the child if asked to, reaps it and closes the pipe. Returns NULL when it exited
 * with status 0, else how it ended ("killed by signal 11 (Segmentation fault)"); the
 * caller frees it. */
char *worker_finish(struct worker *w, bool kill_it);
/* How a child ended: the signal that ended it (0: none), its exit status (-1: it did not
 * exit) and the CPU time it used. */
struct worker_end {
	int signal;
	int exit_status;
	double cpu_s;
};
/* worker_finish, also filling *end. */
char *worker_finish_end(struct worker *w, bool kill_it, struct worker_end *end);

/* In the child: how much it has printed so far, to send with the news of a run's start,
 * since the parent may read that news only after the child printed more. */
long long worker_output_offset(void);
/* In the child: what it has printed on stderr since `offset` (from
 * worker_output_offset), for a driver that reports errors only by printing them. Caller
 * frees; never NULL. */
char *worker_own_output(long long offset);
/* In the child: sends stdout, where kernels' printf writes, to a file of its own, so
 * that what a kernel prints never reaches worker_own_output, where a driver's messages
 * are read as diagnostics, and is read only as what the kernel printed. */
void worker_stdout_apart(void);
/* In the child: how much has been written to stdout so far; -1 where it is no file. */
long long worker_stdout_offset(void);
/* In the child: what was written to stdout since `offset`, at most `max` bytes of it
 * (with how much was left out said at the end); NULL where nothing was. Caller frees. */
char *worker_stdout_since(long long offset, size_t max);
/* In the parent: worker_output_tail reads only what the child printed after `offset`. */
void worker_mark_output(struct worker *w, long long offset);

/* The last `max` bytes (at most) the child printed since the mark, from the start of a
 * line; NULL when it printed nothing. Call before worker_finish. Caller frees. */
char *worker_output_tail(struct worker *w, size_t max);

/* In the child: writes every byte of `frames` to fd, then empties it. */
void worker_send(int fd, struct strbuf *frames);

#endif
