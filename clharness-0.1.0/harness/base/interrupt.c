/* interrupt.c - ends the children when the parent is told to stop. Only what is
 * async-signal-safe happens in the handler: a flag, and kill(2) of each tracked child. */
#include "config.h"

#include "base/interrupt.h"

#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Graders and their workers: -j at most 256 graders, each with one worker at a time. */
enum { MAX_TRACKED = 1024 };

static volatile sig_atomic_t received;
static volatile pid_t tracked[MAX_TRACKED];

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int signo)
{
	received = signo;
	for (size_t i = 0; i < MAX_TRACKED; i++)
		if (tracked[i] > 0)
			kill(tracked[i], SIGKILL);
}

void interrupt_install(void)
{
	/* No SA_RESTART: poll, read and waitpid return EINTR, so the loops notice. */
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaction(signals[i], &sa, NULL);
}

int interrupt_signal(void)
{
	return received;
}

void interrupt_track(pid_t pid)
{
	for (size_t i = 0; i < MAX_TRACKED; i++)
		if (tracked[i] == 0) {
			tracked[i] = pid;
			break;
		}
	/* A signal that came between the fork and here has already run its handler. */
	if (received)
		kill(pid, SIGKILL);
}

void interrupt_untrack(pid_t pid)
{
	for (size_t i = 0; i < MAX_TRACKED; i++)
		if (tracked[i] == pid)
			tracked[i] = 0;
}

void interrupt_in_child(pid_t parent)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaction(signals[i], &sa, NULL);
	for (size_t i = 0; i < MAX_TRACKED; i++)
		tracked[i] = 0;
	received = 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent may have died before prctl: then nobody would send the signal. */
	if (getppid() != parent)
		_exit(1);
}
