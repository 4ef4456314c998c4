/* clangapi.c - libclang's C API, loaded where a source is read (clangapi.h). */
#include "config.h"

#ifdef HAVE_LIBCLANG

#include "source/clangapi.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/interrupt.h"

struct clang_functions clang_api;

bool clang_api_available(void)
{
	return access(CLH_LIBCLANG, R_OK) == 0;
}

bool clang_api_load(char **why)
{
	void *lib = dlopen(CLH_LIBCLANG, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		*why = xasprintf("cannot load libclang (%s): %s; install the Debian package "
				 "libclang1 of that version",
				 CLH_LIBCLANG, dlerror());
		return false;
	}
#define RESOLVE(f)                                                                         \
	if ((clang_api.f = (__typeof__(f) *)dlsym(lib, #f)) == NULL) {                     \
		*why = xasprintf("%s has no %s", CLH_LIBCLANG, #f);                        \
		return false;                                                              \
	}
	CLANG_API(RESOLVE)
#undef RESOLVE
	return true;
}

char *clang_api_text(CXString s)
{
	const char *c = clang_api.clang_getCString(s);
	char *copy = xstrdup(c ? c : "");
	clang_api.clang_disposeString(s);
	return copy;
}

/* The errors clang found in the file itself, as diagnostics at their places. */
static size_t take_errors(CXTranslationUnit tu, const char *path, struct diag_list *diags)
{
	size_t errors = 0;
	for (unsigned i = 0; i < clang_api.clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic d = clang_api.clang_getDiagnostic(tu, i);
		if (clang_api.clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			unsigned line = 0, col = 0;
			CXFile file;
			clang_api.clang_getSpellingLocation(clang_api.clang_getDiagnosticLocation(d),
							    &file, &line, &col, NULL);
			char *text = clang_api_text(clang_api.clang_getDiagnosticSpelling(d));
			diag_add(diags, DIAG_ERROR, path, (int)line, (int)col, "%s", text);
			free(text);
			errors++;
		}
		clang_api.clang_disposeDiagnostic(d);
	}
	return errors;
}

CXTranslationUnit clang_api_parse(CXIndex index, const char *path, const char *options,
				  struct diag_list *diags)
{
	const char *fixed[] = { "-x",
				"cl",
				"-cl-std=CL1.2",
				"-Xclang",
				"-finclude-default-header",
				"-target",
				"spir64-unknown-unknown",
				"-isystem",
				CLH_CLANG_INCLUDE };
	size_t nfixed = sizeof fixed / sizeof fixed[0];
	char *copy = xstrdup(options ? options : "");
	const char **args = xcalloc(nfixed + strlen(copy) / 2 + 2, sizeof *args);
	size_t nargs = 0;
	for (size_t i = 0; i < nfixed; i++)
		args[nargs++] = fixed[i];
	for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		args[nargs++] = w;
	CXTranslationUnit tu = NULL;
	enum CXErrorCode err = clang_api.clang_parseTranslationUnit2(
		index, path, args, (int)nargs, NULL, 0, CXTranslationUnit_None, &tu);
	free(args);
	free(copy);
	if (err != CXError_Success || tu == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "clang could not read the file (error %d)",
			 (int)err);
		return NULL;
	}
	if (take_errors(tu, path, diags) > 0) {
		clang_api.clang_disposeTranslationUnit(tu);
		return NULL;
	}
	return tu;
}

CXTranslationUnit clang_api_read(CXIndex index, const char *path, const char *options, char **src,
				 size_t *len, struct diag_list *diags)
{
	*len = 0;
	*src = read_file(path, len);
	if (*src == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read it");
		return NULL;
	}
	return clang_api_parse(index, path, options, diags);
}

struct child_job {
	void (*job)(void *ctx, struct strbuf *out);
	void *ctx;
};

static void run_in_child(void *ctx, int fd)
{
	const struct child_job *cj = ctx;
	struct strbuf out = { 0 };
	char *why = NULL;
	if (!clang_api_load(&why))
		strbuf_printf(&out, "E\t0\t0\t%s\n", why);
	else
		cj->job(cj->ctx, &out);
	if (out.data && !write_all(fd, out.data, out.len))
		_exit(3);
	/* _exit, not a return: the parent's atexit handlers are not this child's. */
	_exit(0);
}

char *clang_api_in_child(void (*job)(void *ctx, struct strbuf *out), void *ctx, bool *ok,
			 char **why)
{
	struct child_job cj = { job, ctx };
	int fd;
	pid_t pid = child_start(run_in_child, &cj, NULL, 0, &fd);
	struct strbuf got = { 0 };
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof chunk)) != 0)
		if (n > 0)
			strbuf_append(&got, chunk, (size_t)n);
		else if (errno != EINTR)
			break;
	close(fd);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	interrupt_untrack(pid);
	*ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	*why = *ok ? NULL
		   : xstrdup(WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "it failed");
	char *text = strbuf_take(&got);
	return text ? text : xstrdup("");
}

#endif
