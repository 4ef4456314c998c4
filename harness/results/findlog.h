/* findlog.h - what one command (run, check, hunt, grade) found, gathered for the reports
 * written at its end (SARIF for code scanning, the HTML page): each finding folded across
 * the runs that showed it, each failed run that no finding explains (a wrong output, a
 * build error, a hang, a crash, a broken case file) at the line that names it, every
 * run's verdict, and whether everything asked for was checked. Each kind of problem is a
 * rule, described once. */
#ifndef CLH_FINDLOG_H
#define CLH_FINDLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "findings/finding.h"
#include "results/result.h"

/* A kind of problem, as a report describes it. */
struct findlog_rule {
	const char *id; /* a finding's kind or a verdict: "race", "wrong-output" */
	const char *name;
	const char *level; /* its default level */
	const char *short_text;
	const char *full_text;
	const char *help;
};
extern const struct findlog_rule findlog_rules[];
extern const size_t findlog_nrules;

/* One problem: a finding (folded across the runs that showed it), or a failed run. */
struct findlog_entry {
	size_t rule; /* into findlog_rules */
	enum diag_severity severity;
	char *file;
	int line, col;
	char *message; /* a failed run's; a finding's is made from the finding */
	/* A diagnostic's first note at another line (the other access of a graded race):
	 * where, and the note's text; line 0: none. A finding has its own (finding.other). */
	int other_line, other_col;
	char *other_note;
	bool has_finding;
	struct finding finding;
	char **seen; /* the runs that showed it */
	char **said; /* what a failed run said of itself there (the outputs that differ, at
			which element, got and want); NULL for a finding */
	size_t nseen;
};

/* One run and its verdict, for the report's summary. */
struct findlog_run {
	char *label; /* "oclgrind N=256 L=32 of barrier/broadcast_sum" */
	enum verdict verdict;
	bool expected; /* what its case expects */
	char *message; /* why it failed, where it did */
	double ms;     /* the device run's wall time */
};

struct findlog {
	char *command;
	char *root; /* absolute, without a trailing slash */
	struct findlog_entry *entries;
	size_t count;
	struct findlog_run *runs;
	size_t nruns;
	char *incomplete; /* why not everything was checked; NULL: it was */
	/* What the harness chose where the user gave nothing ("height = 48: the global
	 * size's second extent, as its name says"), which every finding rests on too. */
	char **chosen;
	size_t nchosen;
};

/* An empty log for `command` (run, check, hunt, grade), whose paths are made relative to
 * `source_root` (NULL: the working directory). */
struct findlog *findlog_new(const char *command, const char *source_root);
void findlog_free(struct findlog *log);

/* One finding, seen in the run `seen_in` names ("oclgrind N=256 L=32", a trial); placed
 * in `file_if_unknown` when it names no file. Equal findings fold into one entry. */
void findlog_add_finding(struct findlog *log, const struct finding *f,
			 const char *file_if_unknown, const char *seen_in);
/* A run: its verdict, its findings, and its failure when no finding shows why. */
void findlog_add_result(struct findlog *log, const struct result *r);
/* An error or warning that stopped something from running (a case file that does not
 * load, a kernel that does not build), at its line. Notes are left out. */
void findlog_add_diag(struct findlog *log, const struct diag *d, const char *rule);
/* Every error and warning of a graded student: each check's diagnostics (placed by the
 * submission), and what blocked every check; a diagnostic without a code counts under
 * `fallback_rule`. The notes after each are part of its message. */
void findlog_add_diags(struct findlog *log, const struct diag_list *diags,
		       const char *fallback_rule, const char *seen_in);
/* Marks the log as one that did not check everything it was asked to (every run a skip,
 * some cut short), so no reader takes an empty log as clean. `why` says what was
 * missing; the first reason given is kept. */
void findlog_incomplete(struct findlog *log, const char *why);
/* Records a value the harness chose, said once however many runs used it. */
void findlog_chosen(struct findlog *log, const struct chosen_value *value);

/* The rule called `name` (a finding's kind or a verdict), as the static string the rules
 * table holds; NULL when no rule has that name. */
const char *findlog_rule_id(const char *name);
/* The entries in the order a reader wants them: errors first, then by file and line. A
 * shallow copy: free() it alone. */
struct findlog_entry *findlog_sorted(const struct findlog *log);

#endif
