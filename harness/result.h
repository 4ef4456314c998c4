/* result.h - the verdict of one case at one size on one target, and whether it is the
 * verdict the case expects. */
#ifndef CLH_RESULT_H
#define CLH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum verdict {
	VERDICT_PASS,
	VERDICT_WRONG_OUTPUT,
	VERDICT_BUILD_ERROR,
	VERDICT_CASE_ERROR, /* the case cannot run as written: bad plan, arguments not matching */
	VERDICT_TIMEOUT,
	VERDICT_CRASH,
	VERDICT_SKIP, /* the target lacks something the run needs */
};

/* One result. n and l are 0 for results about a whole case (a build error, a crash while
 * building). file/line/col/message is the headline diagnostic, detail the rest (build
 * log, signal name). Mismatch fields are set for wrong-output. */
struct result {
	char *case_name;
	char *case_path;
	char *target;
	char *backend;
	long long n;
	long long l;
	enum verdict verdict;
	bool racy;
	uint64_t kernel_ns;
	uint64_t reference_ns;
	uint64_t compare_ns;
	unsigned repeat;
	unsigned builds;     /* programs built for this result; 0 when reused */
	unsigned generated;  /* buffers whose initial contents were generated for it */
	unsigned references; /* CPU references computed for it; 0 when all were reused */
	double drift;	     /* worst |error| / bound over the checked floats */
	char *file;
	int line;
	int col;
	char *message;
	char *detail;
	char *buffer; /* wrong-output: the first mismatching buffer */
	size_t index;
	double got;
	double want;
	double bound;
	size_t mismatches;
	size_t compared;
};

const char *verdict_name(enum verdict v);
/* Whether the result is what the case expects: pass (or skip) for good kernels; for racy
 * ones, any produced output, right or wrong, since what a race does on hardware varies. */
bool result_expected(const struct result *r);
/* Sets the headline diagnostic; copies file, formats the message. */
void result_set_diag(struct result *r, enum verdict v, const char *file, int line, int col,
		     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void result_free(struct result *r);

#endif
