/* conformance_judge.c - judges the conformance corpus, spoken as TAP. Each kernel of
 * tests/conformance/ holds in a comment after its code the command line `clharness check`
 * is given (check:), the findings it must report, normalised as goldens hold them
 * (expect:), the exit status it must give (exit:; else 1 where an error is expected, and
 * 77 where every run is a skip), and text its output must hold (message:, for a refusal,
 * which runs nothing). Any other finding, or a run that did not build or ran to no end,
 * fails, as in a simulator's own test suite. A finding the simulator itself gets wrong
 * is listed as simulator-false:, expected, and counted apart. Ends with the counts:
 * kernels passed, and errors and warnings on the kernels that expect none (each a false
 * finding), with the notes there apart (what the simulator said and the harness could
 * not confirm).
 * Usage: conformance_judge CLHARNESS DIR [NAME...]; CLH_CONFORMANCE_VERBOSE=1 shows each
 * output. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/util.h"
#include "results/resultfile.h"

/* What a kernel of the corpus asks of the check. */
struct expectation {
	char *check;	 /* the arguments after the file */
	char **findings; /* normalised lines */
	size_t nfindings;
	size_t simulator_false; /* of those, the simulator's own false findings */
	char **messages;	/* message: text the output must hold (a refusal's) */
	size_t nmessages;
	int exit_status; /* -1: 1 where an error is expected, else 0 */
};

/* The text after "KEY:" on a line of a comment, or NULL. */
static const char *keyed(const char *line, const char *key)
{
	while (*line == ' ' || *line == '\t' || *line == '*' || *line == '/')
		line++;
	size_t len = strlen(key);
	if (strncmp(line, key, len) != 0 || line[len] != ':')
		return NULL;
	line += len + 1;
	while (*line == ' ')
		line++;
	return line;
}

/* Reads the expectation from the keyed lines of `source`'s comments, which stand after
 * the kernel so that adding one moves no line of code. */
static int read_expectation(char *source, struct expectation *e, char **why)
{
	*e = (struct expectation){ .exit_status = -1 };
	for (char *save = NULL, *line = strtok_r(source, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *v;
		if ((v = keyed(line, "check")) != NULL) {
			free(e->check);
			e->check = xstrdup(v);
		} else if ((v = keyed(line, "expect")) != NULL ||
			   (v = keyed(line, "simulator-false")) != NULL) {
			e->simulator_false += keyed(line, "simulator-false") != NULL;
			e->findings =
				xreallocarray(e->findings, e->nfindings + 1, sizeof *e->findings);
			e->findings[e->nfindings++] = xstrdup(v);
		} else if ((v = keyed(line, "exit")) != NULL) {
			e->exit_status = atoi(v);
		} else if ((v = keyed(line, "message")) != NULL) {
			e->messages =
				xreallocarray(e->messages, e->nmessages + 1, sizeof *e->messages);
			e->messages[e->nmessages++] = xstrdup(v);
		}
	}
	if (e->check == NULL) {
		*why = xstrdup("no comment of it has a 'check:' line");
		return -1;
	}
	if (e->exit_status < 0) {
		e->exit_status = 0;
		for (size_t i = 0; i < e->nfindings; i++)
			if (strncmp(e->findings[i], "error ", 6) == 0)
				e->exit_status = 1;
	}
	return 0;
}

static void expectation_free(struct expectation *e)
{
	free(e->check);
	strings_free(e->findings, (long)e->nfindings);
	strings_free(e->messages, (long)e->nmessages);
}

/* A recorded finding as a golden's line holds it: severity, kind, what, space, lines. */
static char *normal(const struct recorded_finding *f)
{
	struct strbuf sb = { 0 };
	strbuf_printf(&sb, "%s %s", f->severity, f->kind);
	if (f->what) {
		strbuf_puts(&sb, " ");
		for (const char *p = f->what; *p; p++)
			strbuf_append(&sb, *p == ' ' ? "-" : p, 1);
	}
	if (f->space)
		strbuf_printf(&sb, " %s", f->space);
	if (f->line > 0)
		strbuf_printf(&sb, " %d", f->line);
	if (f->other_line > 0)
		strbuf_printf(&sb, " %d", f->other_line);
	return strbuf_take(&sb);
}

static bool listed(char *const *lines, size_t n, const char *line)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(lines[i], line) == 0)
			return true;
	return false;
}

/* Runs the check of `file` and compares. Returns 0 when it holds, else 1 with what
 * differs in *diff; *found counts the distinct errors and warnings reported, *noted the
 * notes (what the simulator reported and a rerun did not confirm). */
static int judge(const char *clharness, const char *dir, const char *name,
		 const struct expectation *e, struct strbuf *diff, size_t *found, size_t *noted)
{
	char *out_path = xstrdup("/tmp/clharness-conformance-XXXXXX");
	int fd = mkstemp(out_path);
	if (fd >= 0)
		close(fd);
	const char *device = strstr(e->check, "--device") ? "" : "--device oclgrind ";
	char *cmd = xasprintf("cd '%s' && '%s' check --json --color never %s'%s' %s >'%s' 2>&1",
			      dir, clharness, device, name, e->check, out_path);
	int raw = system(cmd);
	int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
	size_t len;
	char *text = read_file(out_path, &len);
	struct recorded_list results = { 0 };
	struct diag_list ignored = { 0 }; /* the summary and notes are no result lines */
	char *copy = text ? xstrdup(text) : NULL;
	if (copy)
		resultfile_parse(name, copy, &results, &ignored);
	diag_list_free(&ignored);

	char **got = NULL;
	size_t ngot = 0;
	for (size_t r = 0; r < results.count; r++) {
		/* A run that gave no verdict on the kernel checked nothing; skips are what a
		 * kernel that expects exit status 77 is for. */
		const char *v = results.items[r].verdict;
		if (v && (strcmp(v, "build-error") == 0 || strcmp(v, "case-error") == 0 ||
			  strcmp(v, "timeout") == 0 || strcmp(v, "crash") == 0 ||
			  strcmp(v, "incomplete") == 0 ||
			  (strcmp(v, "skip") == 0 && e->exit_status != 77)))
			strbuf_printf(diff, "a run on %s gave %s\n", results.items[r].target, v);
		for (size_t f = 0; f < results.items[r].nfindings; f++) {
			char *line = normal(&results.items[r].findings[f]);
			if (listed(got, ngot, line)) {
				free(line);
				continue;
			}
			got = xreallocarray(got, ngot + 1, sizeof *got);
			got[ngot++] = line;
		}
	}
	/* A refusal (exit 2) runs nothing: its message is what it must say. */
	if (results.count == 0 && e->exit_status != 2)
		strbuf_puts(diff, "no result at all\n");
	for (size_t i = 0; i < e->nmessages; i++)
		if (text == NULL || strstr(text, e->messages[i]) == NULL)
			strbuf_printf(diff, "the output lacks: %s\n", e->messages[i]);
	*found = *noted = 0;
	for (size_t i = 0; i < ngot; i++)
		*(strncmp(got[i], "note ", 5) == 0 ? noted : found) += 1;
	for (size_t i = 0; i < e->nfindings; i++)
		if (!listed(got, ngot, e->findings[i]))
			strbuf_printf(diff, "missing: %s\n", e->findings[i]);
	for (size_t i = 0; i < ngot; i++)
		if (!listed(e->findings, e->nfindings, got[i]))
			strbuf_printf(diff, "unexpected: %s\n", got[i]);
	if (status != e->exit_status)
		strbuf_printf(diff, "exit status %d, want %d\n", status, e->exit_status);
	if (diff->len || getenv("CLH_CONFORMANCE_VERBOSE"))
		strbuf_printf(diff, "command: %s\n%s", cmd, text ? text : "");
	strings_free(got, (long)ngot);
	recorded_list_free(&results);
	free(copy);
	free(text);
	unlink(out_path);
	free(out_path);
	free(cmd);
	return diff->len && !getenv("CLH_CONFORMANCE_VERBOSE") ? 1 : (diff->len ? -1 : 0);
}

/* Writes `text` as TAP comments. */
static void comment(const char *text)
{
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		printf("# %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: conformance_judge CLHARNESS DIR [NAME...]\n");
		return 2;
	}
	const char *clharness = argv[1], *dir = argv[2];
	char **paths = NULL;
	long n = 0;
	if (argc > 3) {
		n = argc - 3;
		paths = xcalloc((size_t)n, sizeof *paths);
		for (long i = 0; i < n; i++)
			paths[i] = xasprintf("%s/%s", dir, argv[3 + i]);
	} else if ((n = dir_entries(dir, false, &paths)) < 0) {
		fprintf(stderr, "conformance: cannot read %s\n", dir);
		return 2;
	}
	size_t tests = 0, passed = 0, clean_kernels = 0, false_findings = 0, simulator_notes = 0;
	for (long i = 0; i < n; i++) {
		if (!has_suffix(paths[i], ".cl"))
			continue;
		const char *name = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
		tests++;
		size_t len;
		char *source = read_file(paths[i], &len);
		struct expectation e;
		char *why = NULL;
		struct strbuf diff = { 0 };
		int verdict = 1;
		size_t found = 0, noted = 0;
		if (source == NULL)
			why = xasprintf("cannot read %s", paths[i]);
		else if (read_expectation(source, &e, &why) == 0) {
			verdict = judge(clharness, dir, name, &e, &diff, &found, &noted);
			if (e.nfindings == e.simulator_false) {
				clean_kernels++;
				false_findings += found;
				simulator_notes += noted;
			}
			expectation_free(&e);
		}
		printf("%s %zu - %s\n", verdict == 1 ? "not ok" : "ok", tests, name);
		if (why)
			comment(why);
		if (diff.len)
			comment(diff.data);
		passed += verdict != 1;
		free(why);
		free(source);
		strbuf_free(&diff);
	}
	printf("# conformance: %zu of %zu kernels give the expected findings and exit status; "
	       "%zu error%s or warning%s on the %zu kernels that expect none, and %zu note%s "
	       "there of what the simulator reported and a rerun did not confirm\n",
	       passed, tests, false_findings, false_findings == 1 ? "" : "s",
	       false_findings == 1 ? "" : "s", clean_kernels, simulator_notes,
	       simulator_notes == 1 ? "" : "s");
	printf("1..%zu\n", tests);
	strings_free(paths, n);
	return 0;
}
