/* sarif.c - the SARIF 2.1.0 log of a run, check, hunt or grade (sarif.h). */
#include "config.h"

#include "results/sarif.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "findings/advice.h"
#include "results/report.h"

/* --- writing --- */

/* A path as a URI's path (RFC 3986): unreserved characters and slashes as they are, every
 * other byte as %XX. */
static void percent_encoded(struct strbuf *out, const char *path)
{
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    (c != '\0' && strchr("-._~/", c)))
			strbuf_append(out, p, 1);
		else
			strbuf_printf(out, "%%%02X", c);
	}
}

/* A path as a URI relative to the root when it lies under it; else an absolute file
 * URI. */
static void uri(struct strbuf *out, const struct findlog *log, const char *file,
		bool *relative)
{
	char buf[PATH_MAX], cwd[PATH_MAX];
	char *abs = NULL;
	if (realpath(file, buf) != NULL)
		abs = xstrdup(buf);
	else if (file[0] == '/')
		abs = xstrdup(file);
	else
		abs = xasprintf("%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", file);
	size_t n = strlen(log->root);
	const char *path = abs;
	*relative = strcmp(log->root, "/") == 0 ? abs[0] == '/'
						: strncmp(abs, log->root, n) == 0 && abs[n] == '/';
	if (*relative)
		path = abs + (strcmp(log->root, "/") == 0 ? 1 : n + 1);
	else
		strbuf_puts(out, "file://");
	percent_encoded(out, path);
	free(abs);
}

/* A location object: {"id":..,"message":..,"physicalLocation":..}, the id and message
 * only for a related location (id > 0). */
static void location(struct strbuf *out, const struct findlog *log, const char *file,
		     int line, int col, int id, const char *message)
{
	struct strbuf u = { 0 };
	bool relative = false;
	uri(&u, log, file, &relative);
	strbuf_puts(out, "{");
	if (id > 0) {
		strbuf_printf(out, "\"id\":%d,\"message\":{\"text\":", id);
		json_string(out, message);
		strbuf_puts(out, "},");
	}
	strbuf_puts(out, "\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
	json_string(out, u.data);
	if (relative)
		strbuf_puts(out, ",\"uriBaseId\":\"SRCROOT\"");
	/* A region needs a line: a result the tool cannot place is put at the file's start. */
	strbuf_printf(out, "},\"region\":{\"startLine\":%d", line > 0 ? line : 1);
	if (line > 0 && col > 0)
		strbuf_printf(out, ",\"startColumn\":%d", col);
	strbuf_puts(out, "}}}");
	strbuf_free(&u);
}

/* A stable name for a result across analyses, as code scanning matches alerts: its rule,
 * file, lines, memory space and access, hashed (FNV-1a). */
static void fingerprint(struct strbuf *out, const struct findlog_entry *e)
{
	struct strbuf key = { 0 };
	strbuf_printf(&key, "%s|%s|%d|%d", findlog_rules[e->rule].id, e->file ? e->file : "", e->line,
		      e->col);
	if (e->has_finding)
		strbuf_printf(&key, "|%d|%s|%s|%s", e->finding.other.line,
			      e->finding.space ? e->finding.space : "",
			      e->finding.what ? e->finding.what : "",
			      e->finding.kernel ? e->finding.kernel : "");
	uint64_t h = fnv1a(FNV1A_START, key.data, key.len);
	strbuf_printf(out, "\"%016llx\"", (unsigned long long)h);
	strbuf_free(&key);
}

static void finding_result(struct strbuf *out, const struct findlog *log, const struct findlog_entry *e)
{
	const struct finding *f = &e->finding;
	struct strbuf msg = { 0 };
	finding_headline(&msg, f);
	struct advice a = { 0 };
	bool advised = f->severity != DIAG_NOTE && e->file && advice_for_file(f, e->file, &a);
	if (f->other.line > 0)
		strbuf_printf(&msg, ". The other access: [line %d](1).", f->other.line);
	if (advised)
		strbuf_printf(&msg, "\n%s", a.text);
	strbuf_puts(out, ",\"message\":{\"text\":");
	json_string(out, msg.data);
	strbuf_puts(out, "},\"locations\":[");
	location(out, log, e->file ? e->file : "", e->line, e->col, 0, NULL);
	strbuf_puts(out, "]");
	if (f->other.line > 0) {
		strbuf_puts(out, ",\"relatedLocations\":[");
		location(out, log, e->file ? e->file : "", f->other.line, f->other.col, 1,
			 f->kind == FINDING_DIVERGENCE ? "the other barrier" : "the other access");
		strbuf_puts(out, "]");
	}
	if (f->suppressed)
		strbuf_puts(out, ",\"suppressions\":[{\"kind\":\"external\",\"status\":\"accepted\","
				 "\"justification\":\"matched by a clharness suppression\"}]");
	strbuf_puts(out, ",\"properties\":{");
	strbuf_printf(out, "\"occurrences\":%lu", f->count);
	if (f->space) {
		strbuf_puts(out, ",\"memorySpace\":");
		json_string(out, f->space);
	}
	if (f->what) {
		strbuf_puts(out, ",\"access\":");
		json_string(out, f->what);
	}
	if (f->kernel) {
		strbuf_puts(out, ",\"kernel\":");
		json_string(out, f->kernel);
	}
	if (f->nexample) {
		strbuf_puts(out, ",\"workItems\":[");
		for (size_t i = 0; i < f->nexample; i++) {
			struct strbuf w = { 0 };
			finding_entity(&w, &f->example[i]);
			if (i)
				strbuf_puts(out, ",");
			json_string(out, w.data);
			strbuf_free(&w);
		}
		strbuf_puts(out, "]");
	}
	if (f->input_set) {
		strbuf_puts(out, ",\"inputSets\":");
		json_string(out, f->input_set);
	}
	if (f->rests_on) {
		strbuf_puts(out, ",\"restsOn\":");
		json_string(out, f->rests_on);
	}
	if (advised) {
		/* The text report's "fix: " prefix says what a property name already says. */
		const char *fix = a.text;
		if (strncmp(fix, "fix: ", 5) == 0)
			fix += 5;
		strbuf_puts(out, ",\"fix\":");
		json_string(out, fix);
		if (a.line > 0)
			strbuf_printf(out, ",\"fixLine\":%d", a.line);
		advice_free(&a);
	}
	strbuf_free(&msg);
}

static void write_result(struct strbuf *out, const struct findlog *log, const struct findlog_entry *e)
{
	strbuf_puts(out, "{\"ruleId\":");
	json_string(out, findlog_rules[e->rule].id);
	strbuf_printf(out, ",\"ruleIndex\":%zu,\"level\":\"%s\"", e->rule,
		      diag_severity_name(e->severity));
	if (e->has_finding) {
		finding_result(out, log, e);
	} else {
		strbuf_puts(out, ",\"message\":{\"text\":");
		if (e->other_line > 0) {
			/* Code scanning shows a related location only where the message links it. */
			char *text = xasprintf("%s\nSee [line %d](1).", e->message, e->other_line);
			json_string(out, text);
			free(text);
		} else {
			json_string(out, e->message);
		}
		strbuf_puts(out, "}");
		/* A result about no file (a tool's own trouble) has no location: an empty URI
		 * is no artifact code scanning can show. */
		if (e->file && *e->file) {
			strbuf_puts(out, ",\"locations\":[");
			location(out, log, e->file, e->line, e->col, 0, NULL);
			strbuf_puts(out, "]");
		}
		if (e->other_line > 0 && e->file && *e->file) {
			strbuf_puts(out, ",\"relatedLocations\":[");
			location(out, log, e->file ? e->file : "", e->other_line, e->other_col, 1,
				 e->other_note);
			strbuf_puts(out, "]");
		}
		strbuf_puts(out, ",\"properties\":{");
		strbuf_puts(out, "\"occurrences\":1");
	}
	if (e->nseen) {
		strbuf_puts(out, ",\"seenIn\":[");
		for (size_t k = 0; k < e->nseen; k++) {
			if (k)
				strbuf_puts(out, ",");
			json_string(out, e->seen[k]);
		}
		strbuf_puts(out, "]");
	}
	strbuf_puts(out, "},\"partialFingerprints\":{\"clharnessResult/v1\":");
	fingerprint(out, e);
	strbuf_puts(out, "}}");
}

void sarif_text(const struct findlog *log, struct strbuf *out)
{
	strbuf_puts(out, "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
			 "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
			 "\"name\":\"clharness\",\"version\":");
	json_string(out, PACKAGE_VERSION);
	strbuf_puts(out, ",\"rules\":[");
	for (size_t i = 0; i < findlog_nrules; i++) {
		const struct findlog_rule *r = &findlog_rules[i];
		strbuf_puts(out, i ? ",{\"id\":" : "{\"id\":");
		json_string(out, r->id);
		strbuf_puts(out, ",\"name\":");
		json_string(out, r->name);
		strbuf_puts(out, ",\"shortDescription\":{\"text\":");
		json_string(out, r->short_text);
		strbuf_puts(out, "},\"fullDescription\":{\"text\":");
		json_string(out, r->full_text);
		strbuf_puts(out, "},\"help\":{\"text\":");
		json_string(out, r->help);
		strbuf_printf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"},"
				   "\"properties\":{\"tags\":[\"opencl\",\"gpu\",\"correctness\"],"
				   "\"precision\":\"high\",\"problem.severity\":\"%s\"}}",
			      r->level, strcmp(r->level, "error") == 0 ? "error" : "warning");
	}
	strbuf_puts(out, "]}},\"originalUriBaseIds\":{\"SRCROOT\":{\"uri\":");
	struct strbuf root = { 0 };
	strbuf_puts(&root, "file://");
	percent_encoded(&root, log->root);
	if (strcmp(log->root, "/") != 0)
		strbuf_puts(&root, "/");
	json_string(out, root.data);
	strbuf_free(&root);
	strbuf_puts(out, "}},\"invocations\":[{\"executionSuccessful\":");
	strbuf_puts(out, log->incomplete ? "false" : "true");
	if (log->incomplete) {
		strbuf_puts(out, ",\"toolExecutionNotifications\":[{\"level\":\"error\","
				 "\"message\":{\"text\":");
		json_string(out, log->incomplete);
		strbuf_puts(out, "}}]");
	}
	/* What the tool chose for the user is its configuration of the runs, said as such. */
	for (size_t i = 0; i < log->nchosen; i++) {
		strbuf_puts(out, i ? ",{" : ",\"toolConfigurationNotifications\":[{");
		strbuf_puts(out, "\"level\":\"note\",\"message\":{\"text\":");
		json_string(out, log->chosen[i]);
		strbuf_puts(out, "}}");
	}
	if (log->nchosen)
		strbuf_puts(out, "]");
	strbuf_puts(out, ",\"properties\":{\"command\":");
	json_string(out, log->command);
	strbuf_puts(out, "}}],\"results\":[");
	struct findlog_entry *sorted = findlog_sorted(log);
	for (size_t i = 0; i < log->count; i++) {
		if (i)
			strbuf_puts(out, ",");
		write_result(out, log, &sorted[i]);
	}
	free(sorted);
	strbuf_puts(out, "]}]}\n");
}

int sarif_write(const struct findlog *log, const char *path)
{
	struct strbuf text = { 0 };
	sarif_text(log, &text);
	FILE *f = fopen(path, "w");
	int status = 0;
	if (f == NULL || fputs(text.data, f) < 0)
		status = -1;
	if (f && fclose(f) != 0)
		status = -1;
	int saved = errno;
	strbuf_free(&text);
	errno = saved;
	return status;
}