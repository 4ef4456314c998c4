/* sarif.h - SARIF 2.1.0, the log code review and CI systems read: each finding a result
 * with its rule (the finding's kind), level, message, location and the conflicting access
 * as a related location, the work-items and the fix in its properties; each failed run
 * without a finding (wrong output, a build error, a hang, a crash, a broken case file) a
 * result at the line that names it. A finding seen in many runs is one result, with the
 * runs listed. Rules are described once, in the tool's driver. Paths are written relative
 * to the source root (uriBaseId SRCROOT), as code scanning matches them to the repository. */
#ifndef CLH_SARIF_H
#define CLH_SARIF_H

#include <stdio.h>

#include "base/diag.h"
#include "findings/finding.h"
#include "results/result.h"

struct sarif_log;

/* An empty log for `command` (run, check, hunt, grade), whose paths are made relative to
 * `source_root` (NULL: the working directory). */
struct sarif_log *sarif_new(const char *command, const char *source_root);
void sarif_free(struct sarif_log *log);

/* One finding, seen in the run `seen_in` names ("oclgrind N=256 L=32", a trial); placed
 * in `file_if_unknown` when it names no file. Equal findings fold into one result. */
void sarif_add_finding(struct sarif_log *log, const struct finding *f,
		       const char *file_if_unknown, const char *seen_in);
/* A run's findings, and its verdict when it failed with no finding to show why. */
void sarif_add_result(struct sarif_log *log, const struct result *r);
/* An error or warning that stopped something from running (a case file that does not
 * load, a kernel that does not build), at its line. Notes are left out. */
void sarif_add_diag(struct sarif_log *log, const struct diag *d, const char *rule);
/* Marks the run as one that did not check everything it was asked to (every run a skip,
 * some cut short): the log's invocation says so, so no reader takes an empty log as
 * clean. `why` says what was missing; the first reason given is kept. */
void sarif_incomplete(struct sarif_log *log, const char *why);

/* The rule called `name` (a finding's kind or a verdict: "race", "wrong-output"), as the
 * static string the rules table holds; NULL when no rule has that name. */
const char *sarif_rule_id(const char *name);
/* Every error and warning of a graded student: each check's diagnostics (placed by the
 * submission), and what blocked every check; a diagnostic without a code counts under
 * `fallback_rule`. */
void sarif_add_diags(struct sarif_log *log, const struct diag_list *diags,
		     const char *fallback_rule, const char *seen_in);

/* The log as JSON. */
void sarif_text(const struct sarif_log *log, struct strbuf *out);
/* Writes the log to `path`; -1 with errno set when it cannot be written. */
int sarif_write(const struct sarif_log *log, const char *path);

#endif
