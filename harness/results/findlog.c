/* findlog.c - the findings of one command, gathered for its reports (findlog.h). */
#include "config.h"

#include "results/findlog.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What each rule is, said once in the driver; a result names its rule by id. */
const struct findlog_rule findlog_rules[] = {
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

const size_t findlog_nrules = sizeof findlog_rules / sizeof findlog_rules[0];
#define NRULES findlog_nrules

const char *findlog_rule_id(const char *name)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(findlog_rules[i].id, name) == 0)
			return findlog_rules[i].id;
	return NULL;
}

static size_t rule_index(const char *id)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(findlog_rules[i].id, id) == 0)
			return i;
	return NRULES - 1;
}

struct findlog *findlog_new(const char *command, const char *source_root)
{
	struct findlog *log = xcalloc(1, sizeof *log);
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

void findlog_free(struct findlog *log)
{
	if (log == NULL)
		return;
	for (size_t i = 0; i < log->count; i++) {
		struct findlog_entry *e = &log->entries[i];
		free(e->file);
		free(e->message);
		free(e->other_note);
		if (e->has_finding)
			finding_free(&e->finding);
		for (size_t k = 0; k < e->nseen; k++) {
			free(e->seen[k]);
			free(e->said[k]);
		}
		free(e->seen);
		free(e->said);
	}
	free(log->entries);
	for (size_t i = 0; i < log->nruns; i++) {
		free(log->runs[i].label);
		free(log->runs[i].message);
	}
	free(log->runs);
	free(log->command);
	free(log->root);
	free(log->incomplete);
	for (size_t i = 0; i < log->nchosen; i++)
		free(log->chosen[i]);
	free(log->chosen);
	free(log);
}

/* Adds a run that showed the entry, and what it said there (NULL: nothing of its own). */
static void add_seen_saying(struct findlog_entry *e, const char *seen_in, const char *said)
{
	if (seen_in == NULL || *seen_in == '\0')
		return;
	for (size_t k = 0; k < e->nseen; k++)
		if (strcmp(e->seen[k], seen_in) == 0)
			return;
	e->seen = xreallocarray(e->seen, e->nseen + 1, sizeof *e->seen);
	e->said = xreallocarray(e->said, e->nseen + 1, sizeof *e->said);
	e->said[e->nseen] = said ? xstrdup(said) : NULL;
	e->seen[e->nseen++] = xstrdup(seen_in);
}

static void add_seen(struct findlog_entry *e, const char *seen_in)
{
	add_seen_saying(e, seen_in, NULL);
}

static struct findlog_entry *new_entry(struct findlog *log)
{
	log->entries = xreallocarray(log->entries, log->count + 1, sizeof *log->entries);
	struct findlog_entry *e = &log->entries[log->count++];
	*e = (struct findlog_entry){ 0 };
	return e;
}

void findlog_add_finding(struct findlog *log, const struct finding *f,
		       const char *file_if_unknown, const char *seen_in)
{
	const char *file = f->file ? f->file : file_if_unknown;
	for (size_t i = 0; i < log->count; i++) {
		struct findlog_entry *e = &log->entries[i];
		if (e->has_finding && finding_same(&e->finding, f) &&
		    strcmp(e->file ? e->file : "", file ? file : "") == 0) {
			e->finding.count += f->count;
			if (f->severity < e->severity)
				e->severity = e->finding.severity = f->severity;
			add_seen(e, seen_in);
			return;
		}
	}
	struct findlog_entry *e = new_entry(log);
	e->rule = rule_index(finding_kind_name(f->kind));
	e->severity = f->severity;
	e->file = file ? xstrdup(file) : NULL;
	e->line = f->at.line;
	e->col = f->at.col;
	e->has_finding = true;
	finding_copy(&e->finding, f);
	add_seen(e, seen_in);
}

/* "oclgrind N=256 L=32 of barrier/broadcast_sum": the run a result came from, its shape
 * as the text report writes it ("build" for a build's). */
static char *run_label(const struct result *r)
{
	char text[SHAPE_RUN_TEXT_MAX];
	return xasprintf("%s %s%s%s", r->target ? r->target : "",
			 r->n.dims > 0 ? shape_run_text(&r->n, &r->l, " ", text) : "build",
			 r->case_name ? " of " : "", r->case_name ? r->case_name : "");
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

void findlog_add_result(struct findlog *log, const struct result *r)
{
	char *label = run_label(r);
	log->runs = xreallocarray(log->runs, log->nruns + 1, sizeof *log->runs);
	log->runs[log->nruns++] = (struct findlog_run){
		.label = xstrdup(label),
		.verdict = r->verdict,
		.expected = result_expected(r),
		.message = r->message ? xstrdup(r->message) : NULL,
		.ms = r->run_ns / 1e6,
	};
	for (size_t i = 0; i < r->findings.count; i++)
		findlog_add_finding(log, &r->findings.items[i], r->case_path, label);
	/* What a case expects (a racy kernel's recorded output, a simulator's expected
	 * findings) is no failure of its own; the findings above say what it is. */
	const char *rule = result_expected(r) ? NULL : verdict_rule(r);
	if (rule) {
		const char *file = r->file ? r->file : r->case_path;
		for (size_t i = 0; i < log->count; i++) {
			struct findlog_entry *e = &log->entries[i];
			if (!e->has_finding && e->rule == rule_index(rule) &&
			    strcmp(e->file ? e->file : "", file ? file : "") == 0 &&
			    e->line == r->line) {
				add_seen_saying(e, label, r->message);
				free(label);
				return;
			}
		}
		struct findlog_entry *e = new_entry(log);
		e->rule = rule_index(rule);
		e->severity = DIAG_ERROR;
		e->file = file ? xstrdup(file) : NULL;
		e->line = r->line;
		e->col = r->col;
		e->message = r->message ? xasprintf("%s: %s", verdict_name(r->verdict), r->message)
					: xstrdup(verdict_name(r->verdict));
		add_seen_saying(e, label, r->message);
	}
	free(label);
}

void findlog_add_diag(struct findlog *log, const struct diag *d, const char *rule)
{
	if (d->severity == DIAG_NOTE)
		return;
	struct findlog_entry *e = new_entry(log);
	e->rule = rule_index(rule);
	e->severity = d->severity;
	e->file = d->file && *d->file ? xstrdup(d->file) : NULL;
	e->line = d->line;
	e->col = d->col;
	e->message = xstrdup(d->message);
}

void findlog_add_diags(struct findlog *log, const struct diag_list *diags,
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
		for (size_t k = i + 1; k < diags->count && diags->items[k].severity == DIAG_NOTE;
		     k++) {
			strbuf_printf(&text, "\n%s", diags->items[k].message);
			if (diags->items[k].line > 0)
				strbuf_printf(&text, " (line %d)", diags->items[k].line);
		}
		size_t rule = rule_index(d->code ? d->code : fallback_rule);
		struct findlog_entry *same = NULL;
		for (size_t k = 0; k < log->count && same == NULL; k++) {
			struct findlog_entry *e = &log->entries[k];
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
			for (size_t k = i + 1;
			     k < diags->count && diags->items[k].severity == DIAG_NOTE; k++) {
				const struct diag *note = &diags->items[k];
				if (note->line > 0 && note->line != d->line &&
				    strcmp(note->file, d->file) == 0) {
					same->other_line = note->line;
					same->other_col = note->col;
					same->other_note = xstrdup(note->message);
					break;
				}
			}
		}
		strbuf_free(&text);
		/* What the run said there: the diagnostic's own words, without its notes. */
		add_seen_saying(same, seen_in, d->message);
	}
}

void findlog_incomplete(struct findlog *log, const char *why)
{
	/* The first reason is the nearest to the cause. */
	if (log->incomplete == NULL)
		log->incomplete = xstrdup(why);
}

void findlog_chosen(struct findlog *log, const struct chosen_value *value)
{
	char *text = xasprintf("%s = %s: %s (%s gives another)", value->name, value->value,
			       value->why, value->override);
	for (size_t i = 0; i < log->nchosen; i++) {
		if (strcmp(log->chosen[i], text) == 0) {
			free(text);
			return;
		}
	}
	log->chosen = xreallocarray(log->chosen, log->nchosen + 1, sizeof *log->chosen);
	log->chosen[log->nchosen++] = text;
}

static int compare_entries(const void *pa, const void *pb)
{
	const struct findlog_entry *a = pa, *b = pb;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c != 0)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->rule < b->rule ? -1 : a->rule > b->rule;
}

struct findlog_entry *findlog_sorted(const struct findlog *log)
{
	struct findlog_entry *sorted = xcalloc(log->count + 1, sizeof *sorted);
	/* memcpy and qsort take no null array, even for nothing (UBSan). */
	if (log->count > 0) {
		memcpy(sorted, log->entries, log->count * sizeof *sorted);
		qsort(sorted, log->count, sizeof *sorted, compare_entries);
	}
	return sorted;
}
