/* yamltext.c - parses a string with libfyaml, collecting its diagnostics instead of
 * letting it print them, and first tries each text in a child process that libfyaml may
 * crash. */
#include "config.h"

#include "case/yamltext.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"

/* How long the child may parse: libfyaml takes milliseconds on any file a person writes,
 * and loops for ever on some it should refuse. */
enum { PARSE_SECONDS = 10 };

/* In the child: parses `text` (each line on its own when `lines`) and exits. */
static void parse_and_exit(const char *text, bool json, bool lines)
{
	alarm(PARSE_SECONDS);
	/* The parent parses it again and reports what libfyaml says; this copy stays quiet. */
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, STDERR_FILENO);
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET | (json ? FYPCF_JSON_FORCE : 0) };
	const char *p = text;
	do {
		const char *nl = lines ? strchr(p, '\n') : NULL;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		fy_document_destroy(fy_document_build_from_string(&pcfg, p, len));
		p = nl ? nl + 1 : NULL;
	} while (p);
	_exit(0);
}

int yaml_survives(const char *text, bool json, bool lines, char **why)
{
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return 0; /* no process to try it in: parse it here, as before the guard */
	if (pid == 0) {
		interrupt_in_child(parent);
		parse_and_exit(text, json, lines);
	}
	interrupt_track(pid);
	int status = 0;
	pid_t got;
	while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	interrupt_untrack(pid);
	if (got < 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		*why = xasprintf("the YAML parser (libfyaml) did not finish within %d s",
				 PARSE_SECONDS);
	else if (WIFSIGNALED(status))
		*why = xasprintf("the YAML parser (libfyaml) crashes on it (%s)",
				 strsignal(WTERMSIG(status)));
	else
		*why = xasprintf("the YAML parser (libfyaml) stopped with status %d",
				 WEXITSTATUS(status));
	return -1;
}

struct fy_document *yaml_from_text(const char *text, bool json, bool guard,
				   struct yaml_error *err)
{
	*err = (struct yaml_error){ 0 };
	/* As for files (yamlread.c): libfyaml can loop for ever on bytes that are not UTF-8. */
	if (utf8_find_invalid(text, strlen(text), &err->line, &err->col)) {
		err->msg = xstrdup("not UTF-8 text");
		return NULL;
	}
	char *why = NULL;
	if (guard && yaml_survives(text, json, false, &why) < 0) {
		err->line = err->col = 1;
		err->msg = why;
		return NULL;
	}
	struct fy_diag_cfg dcfg;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	struct fy_diag *fdiag = fy_diag_create(&dcfg);
	fy_diag_set_collect_errors(fdiag, true);
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG |
					      (json ? FYPCF_JSON_FORCE : 0),
				     .diag = fdiag };
	struct fy_document *doc = fy_document_build_from_string(&pcfg, text, FY_NT);
	if (doc == NULL) {
		void *iter = NULL;
		struct fy_diag_error *e = fy_diag_errors_iterate(fdiag, &iter);
		if (e) {
			err->line = e->line;
			err->col = e->column;
			err->msg = xstrdup(e->msg);
		}
	}
	fy_diag_destroy(fdiag);
	return doc;
}

void yaml_error_free(struct yaml_error *err)
{
	free(err->msg);
	*err = (struct yaml_error){ 0 };
}
