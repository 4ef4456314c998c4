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

/* What each rule is, said once in the driver; a result names its rule by id. */
struct sarif_rule {
	const char *id;
	const char *name;
	const char *level; /* its default level */
	const char *short_text;
	const char *full_text;
	const char *help;
};

static const struct sarif_rule rules[] = {
	{ "race", "DataRace", "error", "Data race",
	  "Two work-items access the same memory location, at least one of them writing, with "
	  "no barrier, fence or atomic ordering them.",
	  "A data race makes the output depend on the order the hardware happens to run "
	  "work-items in. Within a work-group, put barrier() with the fence of the memory "
	  "shared (CLK_LOCAL_MEM_FENCE or CLK_GLOBAL_MEM_FENCE) between the write and the "
	  "other access; across work-groups no barrier helps: split the kernel into two "
	  "launches, or use atomics. A write-write race whose writes store the same value is "
	  "a warning: the output is right, but OpenCL leaves it undefined." },
	{ "barrier-divergence", "BarrierDivergence", "error", "Barrier divergence",
	  "Not every work-item of a work-group reaches the same barrier, or they reach it a "
	  "different number of times.",
	  "A barrier must be reached by every work-item of the work-group or by none: move it "
	  "out of the condition or loop that only some items take, and keep the condition for "
	  "the work around it." },
	{ "out-of-bounds", "OutOfBounds", "error", "Out-of-bounds access",
	  "A work-item reads or writes past the end of a buffer or local array.",
	  "Guard the access with the element count (if (i < n)), or launch exactly as many "
	  "work-items as there are elements." },
	{ "uninitialized", "Uninitialized", "error", "Use of an uninitialised value",
	  "A value that was never written is read and used (stored, or branched on).",
	  "Write every element before it is read: fill local memory for every item of the "
	  "group, including those past the end of the input (with the operation's identity)." },
	{ "async-copy", "AsyncCopy", "error", "Asynchronous copy misused",
	  "An async_work_group_copy's event is not waited for, or its data is used before the "
	  "wait.",
	  "Call wait_group_events on every event an async copy returns before using the "
	  "copied data." },
	{ "api-error", "ApiError", "error", "OpenCL API error",
	  "An OpenCL call made for the run failed.",
	  "The message names the call and its error code." },
	{ "simulator-error", "SimulatorError", "error", "The simulator stopped the kernel",
	  "Oclgrind stopped the kernel on a fatal error.", "The message says what it met." },
	{ "truncated", "EvidenceMissing", "error", "Evidence missing",
	  "The simulator stopped reporting part-way through the run: what it would have "
	  "reported later is unknown, so the run is no clean result.",
	  "Run a smaller launch, or raise CLHARNESS_OCLGRIND_MAX_ERRORS." },
	{ "other", "SimulatorDiagnostic", "warning", "Simulator diagnostic",
	  "Oclgrind reported something that is not one of the kinds above.",
	  "The message is the simulator's." },
	{ "wrong-output", "WrongOutput", "error", "Output differs from the reference",
	  "An output buffer differs from the CPU reference beyond the bound its comparison "
	  "allows.",
	  "The message names the first element that differs, what was got and what was "
	  "wanted; a data race or a missing barrier is the usual cause where the simulator "
	  "finds one too." },
	{ "build-error", "BuildError", "error", "Kernel does not build",
	  "The OpenCL compiler rejected the kernel.", "The message is the compiler's." },
	{ "case-error", "CaseError", "error", "Case cannot run as written",
	  "The case file or the launch it asks for is wrong: a YAML error, an unknown key, "
	  "arguments that do not match the kernel.",
	  "The message says what to write instead." },
	{ "timeout", "Timeout", "error", "Kernel hangs",
	  "The run did not end within its time limit, and its worker was killed.",
	  "A loop that never ends, or a barrier some items never reach, are the usual "
	  "causes; raise the case's timeout if it is only slow." },
	{ "crash", "Crash", "error", "Run crashed", "The run's process died on a signal.",
	  "An out-of-bounds access on a device is the usual cause: run it under Oclgrind to "
	  "find the line." },
	{ "incomplete", "Incomplete", "error", "Run cut short",
	  "The simulator stopped reporting before the run ended.",
	  "What it did not report is unknown: run a smaller launch." },
};

#define NRULES (sizeof rules / sizeof rules[0])

const char *sarif_rule_id(const char *name)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, name) == 0)
			return rules[i].id;
	return NULL;
}

static size_t rule_index(const char *id)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, id) == 0)
			return i;
	return NRULES - 1;
}

/* One result: a finding (folded across the runs that showed it), or a failed run. */
struct entry {
	size_t rule;
	enum diag_severity severity;
	char *file;
	int line, col;
	char *message;
	bool has_finding;
	struct finding finding;
	char **seen; /* the runs that showed it */
	size_t nseen;
};

struct sarif_log {
	char *command;
	char *root; /* absolute, without a trailing slash */
	struct entry *entries;
	size_t count;
	char *incomplete; /* why not everything was checked; NULL: it was */
};

struct sarif_log *sarif_new(const char *command, const char *source_root)
{
	struct sarif_log *log = xcalloc(1, sizeof *log);
	log->command = xstrdup(command);
	char buf[PATH_MAX];
	const char *root = source_root;
	if (root == NULL || realpath(root, buf) != NULL)
		root = root == NULL ? getcwd(buf, sizeof buf) : buf;
	log->root = xstrdup(root ? root : "/");
	size_t n = strlen(log->root);
	while (n > 1 && log->root[n - 1] == '/')
		log->root[--n] = '\0';
	return log;
}

void sarif_free(struct sarif_log *log)
{
	if (log == NULL)
		return;
	for (size_t i = 0; i < log->count; i++) {
		struct entry *e = &log->entries[i];
		free(e->file);
		free(e->message);
		if (e->has_finding)
			finding_free(&e->finding);
		for (size_t k = 0; k < e->nseen; k++)
			free(e->seen[k]);
		free(e->seen);
	}
	free(log->entries);
	free(log->command);
	free(log->root);
	free(log->incomplete);
	free(log);
}

static void add_seen(struct entry *e, const char *seen_in)
{
	if (seen_in == NULL || *seen_in == '\0')
		return;
	for (size_t k = 0; k < e->nseen; k++)
		if (strcmp(e->seen[k], seen_in) == 0)
			return;
	e->seen = xreallocarray(e->seen, e->nseen + 1, sizeof *e->seen);
	e->seen[e->nseen++] = xstrdup(seen_in);
}

static struct entry *new_entry(struct sarif_log *log)
{
	log->entries = xreallocarray(log->entries, log->count + 1, sizeof *log->entries);
	struct entry *e = &log->entries[log->count++];
	*e = (struct entry){ 0 };
	return e;
}

void sarif_add_finding(struct sarif_log *log, const struct finding *f,
		       const char *file_if_unknown, const char *seen_in)
{
	const char *file = f->file ? f->file : file_if_unknown;
	for (size_t i = 0; i < log->count; i++) {
		struct entry *e = &log->entries[i];
		if (e->has_finding && finding_same(&e->finding, f) &&
		    strcmp(e->file ? e->file : "", file ? file : "") == 0) {
			e->finding.count += f->count;
			if (f->severity < e->severity)
				e->severity = e->finding.severity = f->severity;
			add_seen(e, seen_in);
			return;
		}
	}
	struct entry *e = new_entry(log);
	e->rule = rule_index(finding_kind_name(f->kind));
	e->severity = f->severity;
	e->file = file ? xstrdup(file) : NULL;
	e->line = f->at.line;
	e->col = f->at.col;
	e->has_finding = true;
	finding_copy(&e->finding, f);
	add_seen(e, seen_in);
}

/* "oclgrind N=256 L=32": the run a result came from. */
static char *run_label(const struct result *r)
{
	char n[SHAPE_TEXT_MAX] = "", l[SHAPE_TEXT_MAX] = "";
	if (r->n.dims)
		shape_format(&r->n, n);
	if (r->l.dims)
		shape_format(&r->l, l);
	return xasprintf("%s%s%s%s%s%s%s", r->target ? r->target : "", *n ? " N=" : "", n,
			 *l ? " L=" : "", l, r->case_name ? " of " : "",
			 r->case_name ? r->case_name : "");
}

/* The rule of a failed verdict that no finding explains; NULL for those that need no
 * result of their own (a pass, a skip, a verdict the simulator's findings explain). */
static const char *verdict_rule(const struct result *r)
{
	switch (r->verdict) {
	case VERDICT_WRONG_OUTPUT:
	case VERDICT_BUILD_ERROR:
	case VERDICT_CASE_ERROR:
	case VERDICT_TIMEOUT:
	case VERDICT_CRASH:
	case VERDICT_INCOMPLETE:
		return verdict_name(r->verdict);
	default:
		return NULL;
	}
}

void sarif_add_result(struct sarif_log *log, const struct result *r)
{
	char *label = run_label(r);
	for (size_t i = 0; i < r->findings.count; i++)
		sarif_add_finding(log, &r->findings.items[i], r->case_path, label);
	/* What a case expects (a racy kernel's recorded output, a simulator's expected
	 * findings) is no failure of its own; the findings above say what it is. */
	const char *rule = result_expected(r) ? NULL : verdict_rule(r);
	if (rule) {
		const char *file = r->file ? r->file : r->case_path;
		for (size_t i = 0; i < log->count; i++) {
			struct entry *e = &log->entries[i];
			if (!e->has_finding && e->rule == rule_index(rule) &&
			    strcmp(e->file ? e->file : "", file ? file : "") == 0 &&
			    e->line == r->line) {
				add_seen(e, label);
				free(label);
				return;
			}
		}
		struct entry *e = new_entry(log);
		e->rule = rule_index(rule);
		e->severity = DIAG_ERROR;
		e->file = file ? xstrdup(file) : NULL;
		e->line = r->line;
		e->col = r->col;
		e->message = r->message ? xasprintf("%s: %s", verdict_name(r->verdict), r->message)
					: xstrdup(verdict_name(r->verdict));
		add_seen(e, label);
	}
	free(label);
}

void sarif_add_diag(struct sarif_log *log, const struct diag *d, const char *rule)
{
	if (d->severity == DIAG_NOTE)
		return;
	struct entry *e = new_entry(log);
	e->rule = rule_index(rule);
	e->severity = d->severity;
	e->file = d->file && *d->file ? xstrdup(d->file) : NULL;
	e->line = d->line;
	e->col = d->col;
	e->message = xstrdup(d->message);
}

void sarif_add_diags(struct sarif_log *log, const struct diag_list *diags,
		     const char *fallback_rule, const char *seen_in)
{
	for (size_t i = 0; i < diags->count; i++) {
		const struct diag *d = &diags->items[i];
		if (d->severity == DIAG_NOTE)
			continue;
		/* The notes that follow an error (the other access, where the fix goes) are
		 * part of what a reader of the result needs. */
		struct strbuf text = { 0 };
		strbuf_puts(&text, d->message);
		for (size_t k = i + 1; k < diags->count && diags->items[k].severity == DIAG_NOTE; k++)
			strbuf_printf(&text, "\n%s (line %d)", diags->items[k].message,
				      diags->items[k].line);
		size_t rule = rule_index(d->code ? d->code : fallback_rule);
		struct entry *same = NULL;
		for (size_t k = 0; k < log->count && same == NULL; k++) {
			struct entry *e = &log->entries[k];
			if (!e->has_finding && e->rule == rule && e->line == d->line &&
			    e->col == d->col && strcmp(e->file ? e->file : "", d->file) == 0 &&
			    strcmp(e->message, text.data) == 0)
				same = e;
		}
		if (same == NULL) {
			same = new_entry(log);
			same->rule = rule;
			same->severity = d->severity;
			same->file = *d->file ? xstrdup(d->file) : NULL;
			same->line = d->line;
			same->col = d->col;
			same->message = strbuf_take(&text);
		}
		strbuf_free(&text);
		add_seen(same, seen_in);
	}
}

void sarif_incomplete(struct sarif_log *log, const char *why)
{
	/* The first reason is the nearest to the cause. */
	if (log->incomplete == NULL)
		log->incomplete = xstrdup(why);
}

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
static void uri(struct strbuf *out, const struct sarif_log *log, const char *file,
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
static void location(struct strbuf *out, const struct sarif_log *log, const char *file,
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

static const char *level_name(enum diag_severity s)
{
	return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

/* A stable name for a result across analyses, as code scanning matches alerts: its rule,
 * file, lines, memory space and access, hashed (FNV-1a). */
static void fingerprint(struct strbuf *out, const struct entry *e)
{
	struct strbuf key = { 0 };
	strbuf_printf(&key, "%s|%s|%d|%d", rules[e->rule].id, e->file ? e->file : "", e->line,
		      e->col);
	if (e->has_finding)
		strbuf_printf(&key, "|%d|%s|%s|%s", e->finding.other.line,
			      e->finding.space ? e->finding.space : "",
			      e->finding.what ? e->finding.what : "",
			      e->finding.kernel ? e->finding.kernel : "");
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < key.len; i++) {
		h ^= (unsigned char)key.data[i];
		h *= 1099511628211ull;
	}
	strbuf_printf(out, "\"%016llx\"", (unsigned long long)h);
	strbuf_free(&key);
}

static void finding_result(struct strbuf *out, const struct sarif_log *log, const struct entry *e)
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

static void write_result(struct strbuf *out, const struct sarif_log *log, const struct entry *e)
{
	strbuf_puts(out, "{\"ruleId\":");
	json_string(out, rules[e->rule].id);
	strbuf_printf(out, ",\"ruleIndex\":%zu,\"level\":\"%s\"", e->rule,
		      level_name(e->severity));
	if (e->has_finding) {
		finding_result(out, log, e);
	} else {
		strbuf_puts(out, ",\"message\":{\"text\":");
		json_string(out, e->message);
		strbuf_puts(out, "},\"locations\":[");
		location(out, log, e->file ? e->file : "", e->line, e->col, 0, NULL);
		strbuf_puts(out, "],\"properties\":{");
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

static int compare_entries(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c != 0)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->rule < b->rule ? -1 : a->rule > b->rule;
}

void sarif_text(const struct sarif_log *log, struct strbuf *out)
{
	strbuf_puts(out, "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
			 "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
			 "\"name\":\"clharness\",\"version\":");
	json_string(out, PACKAGE_VERSION);
	strbuf_puts(out, ",\"rules\":[");
	for (size_t i = 0; i < NRULES; i++) {
		const struct sarif_rule *r = &rules[i];
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
	strbuf_puts(out, ",\"properties\":{\"command\":");
	json_string(out, log->command);
	strbuf_puts(out, "}}],\"results\":[");
	struct entry *sorted = xcalloc(log->count + 1, sizeof *sorted);
	memcpy(sorted, log->entries, log->count * sizeof *sorted);
	qsort(sorted, log->count, sizeof *sorted, compare_entries);
	for (size_t i = 0; i < log->count; i++) {
		if (i)
			strbuf_puts(out, ",");
		write_result(out, log, &sorted[i]);
	}
	free(sorted);
	strbuf_puts(out, "]}]}\n");
}

int sarif_write(const struct sarif_log *log, const char *path)
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
