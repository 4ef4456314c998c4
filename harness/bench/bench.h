/* bench.h - `clharness bench`: how fast each case's kernels run against the device's own
 * copy bandwidth, over a sweep of sizes and the case's work-group sizes. Every size's
 * output is still checked, so a fast wrong kernel is reported wrong, not fast. */
#ifndef CLH_BENCH_H
#define CLH_BENCH_H

#include <stddef.h>
#include <stdio.h>

#include "case/shape.h"
#include "case/testcase.h"

enum bench_format { BENCH_TEXT, BENCH_CSV, BENCH_JSON };

struct bench_request {
	char **patterns; /* --device; none: every real device */
	size_t npatterns;
	struct shape *sizes; /* --size; none: powers of two from 2^10 as far as memory allows */
	size_t nsizes;
	struct shape *locals; /* --local; none: each case's own */
	size_t nlocals;
	long long max_size; /* --max-size: the sweep's largest N */
	unsigned rounds;    /* timed rounds a size, after one warm-up */
	unsigned timeout_s;
	enum bench_format format;
	const char *plot_path; /* --plot: an SVG of throughput against size, by gnuplot */
	const char *html_dir;  /* --html: the rows and the plot as one page, DIR/index.html */
	const char *copy_case; /* the copy kernel's case, the bandwidth yardstick */
};

/* One measured run: a case at one size and work-group size on one target. */
struct bench_row {
	char *case_name;
	char *target;
	struct shape n, l;
	char *verdict;	  /* "pass", or why there is no figure ("wrong-output", ...) */
	char *why;	  /* the verdict's message, NULL for pass */
	double median_ms; /* the median round's device time */
	double min_ms;	  /* the fastest round's */
	double spread;	  /* (slowest - fastest) / median */
	double bytes;	  /* moved by one round: every global buffer once */
	double elements;  /* N (the product of N's dimensions) */
	double copy_gbs;  /* the copy kernel's GB/s at this N on this target; 0: unknown */
};

/* Runs the sweep of every case on every selected real device, printing each row to out
 * as it is measured (so Ctrl-C leaves the rows so far), then the plot where asked.
 * Returns the exit status: 0 when every row passed, 1 when any did not, 2 on a setup
 * error (no device; gnuplot missing for --plot). */
int bench_run(const struct bench_request *rq, struct test_case **cases, size_t ncases, FILE *out);

/* Draws rows as --plot does: GB/s against N, a line a target, case and work-group size,
 * the copy kernel's dashed; an SVG by gnuplot. Returns 0, or -1. */
int bench_plot(const struct bench_row *rows, size_t nrows, const char *path);
/* Appends the rows `clharness bench --csv` wrote at path to *rows. Returns 0, or -1 with
 * why (the caller frees it). */
int bench_read_csv(const char *path, struct bench_row **rows, size_t *nrows, char **why);
void bench_rows_free(struct bench_row *rows, size_t nrows);
/* The bench page, Markdown to out, from the results files: a section a target with its
 * plot, drawn into plots_dir as bench-TARGET.svg, and a table a case (GB/s and the
 * fraction of the copy bandwidth a size and work-group size). Returns 0, or 2 when a
 * file cannot be read or gnuplot cannot draw. */
int bench_page(FILE *out, char *const *paths, size_t npaths, const char *plots_dir);

/* The sizes a sweep visits for `tc` on a device: powers of two from 2^10 up to max_size
 * while every buffer fits max_alloc and all of them half the global memory (at work-group
 * size l); for a case with inputs from data files (a captured launch), its own sizes.
 * Returns how many it put in sizes (at most `room`). */
size_t bench_sweep(const struct test_case *tc, const struct shape *l, long long max_size,
		   unsigned long long max_alloc, unsigned long long global_mem, struct shape *sizes,
		   size_t room);

#endif
