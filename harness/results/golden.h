/* golden.h - a case's golden: what the harness must report for it, kept in
 * expected/<topic>/<name>.expect. On a simulator, run by run: the output verdict and the
 * normalised findings (kind, memory space, source lines), which are deterministic there.
 * On real devices one list of verdicts every run must be among: `pass`; `ran` (pass or
 * wrong-output) for a racy kernel, since what a race does on hardware varies;
 * `wrong-output` for a kernel that is wrong everywhere; or any verdicts a person lists,
 * such as `crash` for a kernel a CPU device's stack cannot hold. A small line language, like
 * Oclgrind's own test expectations: any line more or less is a difference. */
#ifndef CLH_GOLDEN_H
#define CLH_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/diag.h"
#include "case/testcase.h"
#include "results/result.h"

/* One simulator run: "oclgrind N=256 L=32: wrong-output" and its findings' lines. */
struct golden_run {
	char *label;	 /* "oclgrind N=256 L=32" */
	char *output;	 /* the output verdict's name */
	char **findings; /* normalised, in report order */
	size_t nfindings;
	int line;  /* where the run's block starts in the file */
	bool seen; /* a result matched the label */
};

struct golden {
	char *path;
	unsigned devices;   /* a bit (1u << verdict) per verdict a device may give; 0: unsaid */
	char *devices_text; /* the line's words as written, for messages */
	struct golden_run *runs;
	size_t nruns;
};

/* Where the golden of a case file lives: <root>/expected/<name>.expect for
 * <root>/cases/<name>.yaml; NULL for a case outside any cases/ folder. Caller frees. */
char *golden_path_for(const char *case_path);

/* Reads a golden. Returns it, or NULL: with errors in diags when the file is malformed
 * (file:line:col), with no diagnostic when there is no such file. */
struct golden *golden_load(const char *path, struct diag_list *diags);
/* golden_load of `contents`, a golden's text, named `path` in diagnostics. */
struct golden *golden_parse(const char *path, const char *contents, struct diag_list *diags);
void golden_free(struct golden *g);

/* Sets r->expect, and r->expect_diff when the result is not what the golden says. */
void golden_judge(struct golden *g, struct result *r);

/* The first run the golden lists that no result has matched, or NULL. */
const struct golden_run *golden_unseen(const struct golden *g);

/* A case's new golden, gathered result by result under --bless. */
struct golden_writer {
	bool buggy;	    /* a simulator found an error */
	bool simulated;	    /* some result came from a simulator */
	bool always_wrong;  /* every simulator run so far gave wrong output */
	struct strbuf runs; /* the simulator blocks so far */
	struct strbuf targets; /* the targets they came from, "\nNAME\n" each */
	char *cut_short;    /* the first simulated run cut short, which no golden may hold */
};

void golden_writer_add(struct golden_writer *w, const struct result *r);
/* The golden's text: `devices: ran` when the case says racy, since a race's output varies;
 * else `devices: wrong-output` when every simulator run gave wrong output, since such a
 * kernel is wrong whatever the order of its work-items; else `ran` when a simulator found
 * an error, and `pass` when it found none.
 * A `previous` devices line naming verdicts no simulator can foresee (crash, timeout...)
 * is kept as a person wrote it. Then each simulator run's block. Caller frees. */
char *golden_writer_text(const struct golden_writer *w, const char *case_name, bool racy,
			 const struct golden *previous);
void golden_writer_free(struct golden_writer *w);

/* A result's block label: its target and shape, "oclgrind N=256 L=32",
 * "pocl-cpu+racecheck N=1024 L=32" (each target that finds keeps blocks of its own).
 * Caller frees. */
char *golden_label(const struct result *r);

/* The goldens of a run's cases: each result judged against its case's golden, or, under
 * --bless, gathered into a new one. */
struct golden_book {
	struct test_case *const *cases;
	size_t ncases;
	bool bless;
	struct golden **goldens;       /* per case; NULL: none, or goldens not in force */
	struct strbuf *targets;	       /* per case: the finding targets whose results arrived,
					  "\nNAME\n" each */
	struct golden_writer *writers; /* per case, under --bless */
};

/* Reads the golden of every case that has one, unless `in_force` is false (a run at sizes
 * of its own matches no golden). A golden that does not parse goes to broken(). */
void golden_book_open(struct golden_book *book, struct test_case *const *cases, size_t ncases,
		      bool bless, bool in_force,
		      void (*broken)(void *ctx, const char *path, const struct diag_list *diags),
		      void *ctx);
/* Judges (or under --bless gathers) one result of the run. */
void golden_book_take(struct golden_book *book, struct result *r);
/* Once the run is over: each run a golden lists that did not happen, though its case ran
 * on a simulator, as a failed result for emit(). */
void golden_book_unseen(const struct golden_book *book, void (*emit)(void *ctx, struct result *r),
			void *ctx);
/* Under --bless: writes every case's new golden where it differs from the old one, saying
 * so on `notes`. Returns the number of files it could not write. */
size_t golden_book_write(const struct golden_book *book, FILE *notes);
void golden_book_close(struct golden_book *book);

#endif
