/* result.h - the verdict of one case at one size on one target, and whether it is the
 * verdict the case expects. */
#ifndef CLH_RESULT_H
#define CLH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "case/elem.h"
#include "case/shape.h"
#include "findings/finding.h"

/* In order of precedence among a simulator's findings: the first that applies names a
 * result whose run found several kinds of bug. */
enum verdict {
	VERDICT_PASS,
	VERDICT_WRONG_OUTPUT,
	VERDICT_RACE,
	VERDICT_DIVERGENCE,
	VERDICT_OUT_OF_BOUNDS,
	VERDICT_UNINITIALIZED,
	VERDICT_BUILD_ERROR,
	VERDICT_CASE_ERROR, /* the case cannot run as written: bad plan, arguments not matching */
	VERDICT_TIMEOUT,
	VERDICT_CRASH,
	/* The simulator stopped reporting before the run ended (its diagnostics cap): what
	 * it did not report is unknown, so the run is no pass whatever it saw. */
	VERDICT_INCOMPLETE,
	VERDICT_SKIP, /* the target lacks something the run needs */
};

/* One buffer as a device left it, kept where runs are compared across devices: count
 * scalars of type, elements of `lanes` lanes. */
struct kept_buffer {
	char *name;
	enum elem_type type;
	unsigned lanes;
	size_t count;
	void *data;
};

/* Who decides whether a result is the one its case expects. */
enum expectation {
	EXPECT_BY_VERDICT, /* no golden: result_expected's rule */
	EXPECT_MET,	   /* the case's golden says exactly this */
	EXPECT_UNMET,	   /* the golden says otherwise; expect_diff shows how */
};

/* One result. n and l (size and work-group shape) have no dimensions for results about a whole case
 * (a build error, a crash while building). file/line/col/message is the headline diagnostic, detail
 * the rest (build log, signal name). Mismatch fields are set for wrong-output. verdict is the worst
 * of the output comparison (kept in `output`) and the simulator's error findings. */
/* A value the harness chose where the user gave none (an argument's, a buffer's count), as
 * a run reports it: what it is, its value at the run's launch, why that one, and the
 * option that gives another. */
struct chosen_value {
	char *name;
	char *value;
	char *why;
	char *override;
};
void chosen_values_free(struct chosen_value *values, size_t count);

struct result {
	char *case_name;
	char *case_path;
	char *target;
	char *backend;
	struct shape n;
	struct shape l;
	enum verdict verdict;
	bool racy;
	bool simulated;	    /* from a backend that finds (CAN_FIND): findings and goldens per run */
	bool outputs_repeat; /* from a backend whose outputs are the same every run (CAN_REPEAT) */
	uint64_t kernel_ns; /* every launch of every round */
	/* The rounds after the warm-up ones (run_options.warmup): their number, and the
	 * fastest, median and slowest round's device time. */
	unsigned rounds_timed;
	uint64_t round_min_ns, round_median_ns, round_max_ns;
	/* Wall time of the device run: inputs written, every launch of every round, outputs
	 * read. */
	uint64_t run_ns;
	uint64_t reference_ns;
	uint64_t compare_ns;
	unsigned repeat;
	unsigned builds;     /* programs built for this result; 0 when reused */
	unsigned cached_builds; /* programs loaded for it from the program cache */
	unsigned generated;  /* buffers whose initial contents were generated for it */
	unsigned references; /* CPU references computed for it; 0 when all were reused */
	double drift;	     /* worst |error| / bound over the checked floats */
	char *file;
	int line;
	int col;
	char *message;
	char *detail;
	char *printed; /* what the run's kernels printed (printf), capped; NULL: nothing */
	/* Set by the parent, never sent by a worker: a remark the report shows with the run,
	 * failing nothing (the application's own output was the odd one out). */
	char *remark;
	char *buffer; /* wrong-output: the first mismatching buffer */
	size_t index;
	double got;
	double want;
	double bound;
	size_t mismatches;
	size_t compared;
	size_t unwritten; /* of the mismatches, elements that still hold their poison */
	enum verdict output;	      /* pass or wrong-output, where outputs were compared */
	struct finding_list findings; /* a simulator's diagnostics, folded */
	struct kept_buffer *kept;     /* run_options.keep_outputs: every output buffer */
	size_t nkept;
	/* Set by the parent, never sent by a worker: the launch a simulated run stands in
	 * for, where that one was too big to simulate in time (no dimensions: none). */
	struct shape shrunk_from;
	enum expectation expect; /* set by the parent, never sent by a worker */
	/* Set by the parent, never sent by a worker: the sandbox stopped the worker for a
	 * system call it forbids (the message names it). */
	bool sandbox_stop;
	char *expect_diff;	 /* EXPECT_UNMET: the golden's lines and this result's */
	/* Set by the parent for its report, never sent by a worker nor freed with the
	 * result: the values the run used that the harness chose. */
	const struct chosen_value *chosen;
	size_t nchosen;
};

/* Where two targets' copies of one buffer differ: how many scalars (a 3-vector's padding
 * apart, NaN equal to NaN), and the first one's element, lane and values. */
struct kept_difference {
	size_t differ;
	size_t compared;
	size_t element;
	unsigned lane;
	double a, b;
	double ulps; /* floats: how many units in the last place the first difference spans */
};
/* Compares a and b scalar by scalar, floats within `ulps` units in the last place (0:
 * exactly); returns the number that differ. d->ulps is how far apart the first lies. */
size_t kept_buffer_diff(const struct kept_buffer *a, const struct kept_buffer *b, double ulps,
			struct kept_difference *d);
/* "out[5]" or "out[5].s2", for messages. */
char *kept_difference_place(const struct kept_buffer *k, const struct kept_difference *d);

const char *verdict_name(enum verdict v);
/* The verdict called `name`, in *v; false when no verdict has that name (or it is NULL). */
bool verdict_from_name(const char *name, enum verdict *v);
/* Whether the result is what the case expects. A golden decides where there is one
 * (r->expect); otherwise: pass (or skip) for good kernels; for racy ones, any produced
 * output right or wrong, since what a race does on hardware varies, or any bug a
 * simulator finds. A run cut short is never what a case expects. */
bool result_expected(const struct result *r);
/* Whether the simulator stopped reporting during the run, so that its findings are only
 * those it reported before: the run's evidence is incomplete whatever its verdict. */
bool result_cut_short(const struct result *r);
/* Whether r ran to its end and was judged, as a run_tally counts it: no skip, not cut
 * short, and no build or case error, time-out or crash. */
bool result_ran_to_end(const struct result *r);
/* Once a run's outputs were compared: keeps that verdict as `output` and raises the
 * verdict to the first error finding's, in enum order. */
void result_settle(struct result *r);
/* Sets the headline diagnostic; copies file, formats the message. */
void result_set_diag(struct result *r, enum verdict v, const char *file, int line, int col,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void result_free(struct result *r);
/* Records where a wrong output first differs: the buffer, the element, the values got and
 * wanted, the bound (0 where exact), and how many of how many compared differ. */
void result_set_mismatch(struct result *r, const char *buffer, size_t index, double got,
			 double want, double bound, size_t mismatches, size_t compared);
/* Frees the outputs a result kept, and no more. */
void result_free_kept(struct result *r);

/* Automake's exit status for a test that was skipped: a command all of whose runs were
 * skips checked nothing, which is neither a pass nor a failure. */
#define EXIT_SKIP 77

/* The runs a command made, by what became of them, so that its summary says how many
 * actually ran and its exit status never reads nothing checked as clean. */
struct run_tally {
	size_t ran;	  /* ran to the end and were judged: pass, wrong output, findings */
	size_t cut_short; /* the simulator stopped reporting part-way */
	size_t failed;	  /* gave nothing to judge: build or case error, timeout, crash */
	size_t skipped;
};
void run_tally_take(struct run_tally *t, const struct result *r);
/* "3 of 4 runs ran to the end (1 skipped)", for a summary. */
void run_tally_text(struct strbuf *out, const struct run_tally *t, const char *runs);
/* 0 when some run ran to its end; EXIT_SKIP when every run was a skip; 1 otherwise, when
 * nothing was checked. */
int run_tally_status(const struct run_tally *t);
/* Why nothing was checked, when run_tally_status is not 0, into OUT: "every run was a
 * skip" or "no run ran to its end", RUN the word for one run. Returns false, writing
 * nothing, when some run ran to its end. */
bool run_tally_unchecked(struct strbuf *out, const struct run_tally *t, const char *run);

/* The most of a result's message and detail (a build log, a worker's last words) that
 * reach the reports: a 3.4 MB source's build log would otherwise put megabytes in every
 * report of it. */
enum { RESULT_MESSAGE_MAX = 4096, RESULT_DETAIL_MAX = 32768 };
/* Cuts r's message and detail to those sizes, saying in each how much was cut. */
void result_cut(struct result *r);

#endif
