/* yamlguard.c - a long-lived child process, the parse server, that parses each text it is
 * sent and answers one byte; the parent learns that libfyaml would crash or hang on a
 * text when the server dies or stays silent, and starts another. One fork a process, not
 * one a text: a fork costs milliseconds, more under AddressSanitizer. */
#include "config.h"

#include "case/yamlguard.h"

#include <errno.h>
#include <libfyaml.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"

/* How long one text may take: libfyaml takes milliseconds on any file a person writes,
 * and loops for ever on some it should refuse. */
enum { PARSE_SECONDS = 10 };

enum { FLAG_JSON = 1, FLAG_LINES = 2 };

/* The server of this process; a forked child (a worker, a grader) starts its own. */
static struct {
	pid_t owner; /* the process that started it */
	pid_t pid;
	int to, from; /* pipe ends: texts to it, answers from it */
} server = { .pid = -1, .to = -1, .from = -1 };

static void parse(const char *text, unsigned flags)
{
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET |
					      (flags & FLAG_JSON ? FYPCF_JSON_FORCE : 0) };
	const char *p = text;
	do {
		const char *nl = flags & FLAG_LINES ? strchr(p, '\n') : NULL;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		fy_document_destroy(fy_document_build_from_string(&pcfg, p, len));
		p = nl ? nl + 1 : NULL;
	} while (p);
}

/* In the server: a text (flags, length, bytes) in, one byte out, until the pipe closes. */
static void serve(int in, int out)
{
	/* The parent parses each text again and reports what libfyaml says of it. */
	redirect_to_null(STDERR_FILENO);
	for (;;) {
		unsigned char flags;
		uint32_t len;
		if (!read_all(in, &flags, 1) || !read_all(in, &len, sizeof len))
			_exit(0);
		char *text = malloc((size_t)len + 1);
		if (text == NULL || !read_all(in, text, len))
			_exit(1);
		text[len] = '\0';
		parse(text, flags);
		free(text);
		if (!write_all(out, "k", 1))
			_exit(0);
	}
}

static void stop_server(bool kill_it, int *status)
{
	if (server.to >= 0)
		close(server.to);
	if (server.from >= 0)
		close(server.from);
	if (server.pid > 0 && server.owner == getpid()) {
		if (kill_it)
			kill(server.pid, SIGKILL);
		while (waitpid(server.pid, status, 0) < 0 && errno == EINTR)
			;
		interrupt_untrack(server.pid);
	}
	server.pid = -1;
	server.to = server.from = -1;
}

static bool start_server(void)
{
	int texts[2], answers[2];
	if (pipe(texts) < 0)
		return false;
	if (pipe(answers) < 0) {
		close(texts[0]);
		close(texts[1]);
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(texts[0]);
		close(texts[1]);
		close(answers[0]);
		close(answers[1]);
		return false;
	}
	if (pid == 0) {
		interrupt_in_child(parent);
		close(texts[1]);
		close(answers[0]);
		serve(texts[0], answers[1]);
	}
	interrupt_track(pid);
	close(texts[0]);
	close(answers[1]);
	server.owner = parent;
	server.pid = pid;
	server.to = texts[1];
	server.from = answers[0];
	return true;
}

int yaml_survives(const char *text, bool json, bool lines, char **why)
{
	if (server.pid > 0 && server.owner != getpid()) {
		/* Inherited from the process that forked this one: that server is not ours. */
		close(server.to);
		close(server.from);
		server.pid = -1;
	}
	if (server.pid <= 0 && !start_server())
		return 0;
	size_t len = strlen(text);
	if (len > UINT32_MAX)
		return 0;
	unsigned char flags = (json ? FLAG_JSON : 0) | (lines ? FLAG_LINES : 0);
	uint32_t len32 = (uint32_t)len;
	struct strbuf request = { 0 };
	strbuf_append(&request, (const char *)&flags, 1);
	strbuf_append(&request, (const char *)&len32, sizeof len32);
	strbuf_append(&request, text, len);
	bool sent = write_all_to_pipe(server.to, request.data, request.len);
	strbuf_free(&request);

	char answer = 0;
	bool answered = false, late = false;
	if (sent) {
		struct pollfd pfd = { .fd = server.from, .events = POLLIN };
		int ready;
		while ((ready = poll(&pfd, 1, PARSE_SECONDS * 1000)) < 0 && errno == EINTR &&
		       !interrupt_signal())
			;
		late = ready == 0;
		answered = ready > 0 && read_all(server.from, &answer, 1) && answer == 'k';
	}
	if (answered)
		return 0;
	int status = 0;
	stop_server(true, &status);
	if (interrupt_signal())
		return 0; /* stopping anyway: the caller's result is not reported */
	if (late)
		*why = xasprintf("the YAML parser (libfyaml) did not finish within %d s",
				 PARSE_SECONDS);
	else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		*why = xasprintf("the YAML parser (libfyaml) crashes on it (%s)",
				 strsignal(WTERMSIG(status)));
	else
		*why = xstrdup("the YAML parser (libfyaml) stopped on it");
	return -1;
}
