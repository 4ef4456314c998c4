/* report.h - reporters: human text (GCC-style diagnostics), TAP for Automake's driver,
 * JSON Lines for machines; and the run's summary. */
#ifndef CLH_REPORT_H
#define CLH_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"
#include "results/result.h"
#include "results/findlog.h"

enum report_format { REPORT_TEXT, REPORT_TAP, REPORT_JSON };

struct reporter {
	enum report_format format;
	FILE *out;
	bool colour;
	size_t results;	   /* results reported: the TAP test number */
	size_t unexpected; /* results that are not what their case expects */
	size_t passed;
	size_t expected_bugs; /* expected bugs: a simulator's findings, a racy wrong output */
	size_t skipped;
	size_t cut_short;    /* runs the simulator stopped reporting in part-way */
	size_t broken_cases; /* case files that did not load */
	size_t suppressed;   /* findings a suppression matched: listed, failing nothing */
	size_t unavailable;  /* targets selected that cannot run here (no Oclgrind): noted */
	double worst_drift; /* of the results of kernels not marked racy */
	uint64_t kernel_ns, run_ns, reference_ns, compare_ns;
	size_t builds, cached_builds, generated, references;
	/* How many processes ran the work side by side (0 or 1: one): the timing split of a
	 * run shared out adds up their times, which no longer part the wall time. */
	unsigned processes;
	FILE *junit; /* also write JUnit XML here, when set */
	struct findlog *findlog; /* also gather the findings here (--sarif, --html), when set */
	struct strbuf junit_cases;
	size_t junit_failures, junit_errors, junit_skipped;
};

void report_init(struct reporter *rp, enum report_format format, FILE *out, bool colour);
/* A case file that failed to load: its diagnostics, and a failed result for it. */
void report_broken_case(struct reporter *rp, const char *path, const struct diag_list *diags);
void report_result(struct reporter *rp, const struct result *r);
/* Nothing can run (no device matches): TAP says "1..0 # SKIP reason". */
void report_skip_all(struct reporter *rp, const char *reason);
/* The summary line, the timing split when asked for, and TAP's plan. */
void report_finish(struct reporter *rp, size_t ntargets, uint64_t wall_ns, bool timing);
/* Also writes JUnit XML to `junit` at report_finish (testcases accumulate until then,
 * since the root element carries the counts). The caller closes the file. */
void report_set_junit(struct reporter *rp, FILE *junit);

/* Also gathers every result, broken case and skip into `log` (findlog.h); the caller writes
 * and frees it. */
void report_set_findlog(struct reporter *rp, struct findlog *log);

/* Whether every result so far was what its case expects. */
bool report_all_expected(const struct reporter *rp);
/* Whether there were results and every one was a skip: nothing was checked. */
bool report_all_skipped(const struct reporter *rp);

/* One finding GCC-style: at its line with a caret, then a note at the other line it names
 * or with its example work-items. Placed in `file_if_unknown` when the finding names no
 * file; tagged with the run r came from, unless r is NULL. */
void report_finding(struct strbuf *out, const struct finding *f, const char *file_if_unknown,
		    const struct result *r, bool colour);
/* Where the fix of f goes (advice.h), a note at that line of `file`, the kernel's source,
 * read here; nothing for findings without advice. */
void report_advice(struct strbuf *out, const struct finding *f, const char *file, bool colour);

/* A shape in JSON: a number for a 1-D one, as results always had; a list for N-D. */
void report_json_shape(struct strbuf *out, const struct shape *s);
/* Values the harness chose, as a JSON array of {name, value, why, override}. */
void report_json_chosen(struct strbuf *out, const struct chosen_value *chosen, size_t count);

/* One finding as a JSON object, with the fields a run's JSON Lines give it. */
void report_json_finding(struct strbuf *out, const struct finding *f);
/* Writes s as a JSON string literal, quotes included. */
void json_string(struct strbuf *out, const char *s);
/* A CSV field, quoted where it must be (RFC 4180), and never read as a formula by a
 * spreadsheet. */
void csv_string(struct strbuf *out, const char *s);
/* Writes s escaped for XML text and attribute values. */
void xml_text(struct strbuf *out, const char *s);

#endif
