/* finding.h - what the harness reports from a checker's observations (Oclgrind's messages,
 * an instrumented kernel's shadow records; one a conflicting pair, hundreds for one bug)
 * folded into one finding per kind, memory space and pair of source lines, placed in the
 * kernel's own file, with how often it occurred and one example of the work-items
 * involved. */
#ifndef CLH_FINDING_H
#define CLH_FINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/util.h"
#include "case/suppress.h"
#include "findings/entity.h"
#include "findings/oglog.h"

enum finding_kind {
	FINDING_RACE,
	FINDING_DIVERGENCE,
	FINDING_OUT_OF_BOUNDS,
	FINDING_UNINITIALIZED,
	FINDING_ASYNC_COPY, /* an async copy's event never waited for, or no such event */
	FINDING_API_ERROR,
	FINDING_SIMULATOR_ERROR, /* Oclgrind stopped the kernel (a fatal error) */
	FINDING_TRUNCATED,	 /* Oclgrind stopped reporting: later diagnostics are missing */
	FINDING_OTHER,
};

/* One source position of a finding, in the kernel's own file. */
struct finding_site {
	int line; /* 0: unknown */
	int col;
	char access; /* 'r' read, 'w' write, 'a' atomic, 'c' a work-group's async copy, 0 unknown */
};

struct finding {
	enum finding_kind kind;
	enum diag_severity severity;
	char *what;		   /* as oglog_message.what: "read-write", "barrier", "read", ... */
	char *space;		   /* "global", "local", "private", "constant" or NULL */
	char *kernel;		   /* NULL when unknown */
	char *file;		   /* the kernel's own file; NULL when unknown */
	struct finding_site at;	   /* where it happened: for races the write */
	struct finding_site other; /* the other access or barrier; line 0 when none */
	unsigned long count;	   /* Oclgrind messages folded into this finding */
	struct entity example[2]; /* the work-items of the first observation */
	size_t nexample;
	char *info;	 /* details: "Only 16 out of 32 ...", an API error's code and text */
	char *input_set; /* clharness check: the input set that first showed it; else NULL */
	/* What the harness chose that the finding may follow from, not the kernel (a
	 * buffer's count, a scalar's value no --arg gave), with the option that gives it;
	 * such a finding is a warning, never the kernel's error. NULL: none. */
	char *rests_on;
	/* An invalid global access whose address lay in no buffer's range: before a
	 * buffer's start (an index below zero) or through a null pointer, which no count of
	 * a buffer explains. */
	bool outside_buffers;
	/* Matched by a suppression: 1 + its index among the run's suppressions (those of
	 * --suppressions, then the case's own); 0: not suppressed. A suppressed finding is
	 * listed, but fails nothing. */
	unsigned suppressed;
};

struct finding_list {
	struct finding *items;
	size_t count;
};

/* One thing a checker saw, in the words findings use, whichever checker saw it: the
 * simulator's log adapter (finding_list_add) and an instrumented kernel's shadow reader
 * both describe what they saw as one of these. Its strings are borrowed. */
struct finding_event {
	enum finding_kind kind;
	enum diag_severity severity;
	const char *what;  /* as struct finding's */
	const char *space; /* "global", "local", ... or NULL */
	const char *kernel;
	const char *file; /* the kernel's own file, or NULL */
	struct finding_site at, other;
	struct entity example[2];
	size_t nexample;
	const char *info;
	bool outside_buffers;
};

/* Adds what a checker saw: a new finding, or one more occurrence of the finding with the
 * same kind, what, memory space, file and pair of lines, however the checker ordered the
 * two sites (a read-write race's write comes first, else the earlier line). The strings
 * are copied only where the finding is new. Returns the finding it made or counted in. */
struct finding *finding_list_note(struct finding_list *list, const struct finding_event *e);

/* A divergence of fence flags' info: the flags (CLK_LOCAL_MEM_FENCE 1,
 * CLK_GLOBAL_MEM_FENCE 2) some work-items passed one barrier with, and the others'.
 * Caller frees. */
char *finding_fence_pair(long some, long others);

/* Where a kernel's source lives: Oclgrind calls every program "input.cl". */
typedef const char *(*finding_file_fn)(void *ctx, const char *kernel);

/* Adds one Oclgrind message, through finding_list_note. Source positions in "input.cl"
 * are placed in file_of(ctx, kernel). */
void finding_list_add(struct finding_list *list, const struct oglog_message *m,
		      finding_file_fn file_of, void *ctx);

/* Adds every finding of src to dst, folding equal ones: counts add up, the first one's
 * example stays, and the input sets that showed it are joined ("random, zeros"). */
void finding_list_merge(struct finding_list *dst, const struct finding_list *src);

/* Adds f to `settled` where it is an error, neither suppressed nor a cut-short run's
 * marker: a finding a search (hunt's sweep) knows as an error from then on, whose later
 * runs need not classify it again (run_options.settled). */
void finding_list_settle(struct finding_list *settled, const struct finding *f);

/* Orders findings as reports list them: errors first, then by file, line and kind. */
void finding_list_sort(struct finding_list *list);

/* Whether a finding that fails a run is there: an error no suppression matched. */
bool finding_list_has_errors(const struct finding_list *list);
/* The finding of `list` that `f` follows from, or NULL where f is a mistake of its own:
 * an uninitialised value used at the line where a race reads (the word the racing write
 * should have filled first), where an out-of-bounds read fetched it (memory past a
 * buffer holds no value the kernel gave it), in a kernel whose items skipped a barrier
 * (and the writes before it), or carried on from such a value in the same kernel. One
 * mistake is then charged once, by whatever judges its cause. */
const struct finding *finding_cause(const struct finding_list *list, const struct finding *f);
/* Whether input set `set` is among those that showed f (clharness check's). */
bool finding_shown_by(const struct finding *f, const char *set);
/* Whether two findings are the same diagnostic: kind, what, space, file and lines. */
bool finding_same(const struct finding *a, const struct finding *b);
/* Whether b is a's mistake at a's line, as another checker reports it: kind, what, space
 * and file alike, and a's line one of b's two. Which access of a racing pair a checker
 * meets second, and so names as the conflicting one, follows the order work-items ran. */
bool finding_same_place(const struct finding *a, const struct finding *b);
void finding_copy(struct finding *dst, const struct finding *src);
void finding_free(struct finding *f);
void finding_list_free(struct finding_list *list);

/* Whether suppression s covers f: the same kind, and the kernel, memory space and lines s
 * names, where it names them (two lines in either order). */
bool finding_suppressed_by(const struct finding *f, const struct suppression *s);
/* Marks each finding the first matching suppression covers, numbering the suppressions
 * of `lists` (NULL entries skipped) one after another from 1. */
void finding_list_suppress(struct finding_list *list, const struct suppression_list *const *lists,
			   size_t nlists);

const char *finding_kind_name(enum finding_kind kind);

/* The headline of a finding, as a diagnostic's message: "read-write data race on local
 * memory: this write conflicts with a read at line 13 (40 times, kernel k)". */
void finding_headline(struct strbuf *out, const struct finding *f);
/* The note about the other site and the example work-items; empty when there is none. */
void finding_note(struct strbuf *out, const struct finding *f);
/* The normalised form goldens record, one line: severity, kind, what, space and lines,
 * e.g. "error race read-write local 14 13". */
void finding_normal(struct strbuf *out, const struct finding *f);
/* One entity as reports print it: "global (1,0,0) local (1,0,0) group (0,0,0)". */
void finding_entity(struct strbuf *out, const struct entity *e);
/* A site's access as a word: "write", "read", "atomic access", "async copy", "access". */
const char *finding_access_word(char access);

#endif
