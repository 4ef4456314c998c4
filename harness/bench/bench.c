/* bench.c - a sweep of sizes for each case on each device, timed by profiling events,
 * beside a copy kernel's bandwidth measured on the same device in the same run. */
#include "config.h"

#include "bench/bench.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/annotate.h"
#include "base/interrupt.h"
#include "base/util.h"
#include "case/plan.h"
#include "exec/select.h"
#include "results/html.h"
#include "results/report.h"

enum { SWEEP_MAX = 64, SWEEP_FIRST_LOG2 = 10 };

/* Bytes one round moves: the case's bytes: expression, or else every global and constant
 * buffer of the case once, as the case sizes them at n and l; 0 where the case cannot be
 * planned there. */
static double case_bytes(const struct test_case *tc, const struct shape *n, const struct shape *l,
			 long long cu)
{
	struct plan plan;
	struct diag_list diags = { 0 };
	double bytes = 0;
	if (plan_build(tc, n, l, cu, &plan, &diags) == 0) {
		for (size_t b = 0; b < tc->nbuffers && plan.bytes == 0; b++)
			bytes += (double)plan_buffer_bytes(tc, &plan, b);
		if (plan.bytes > 0)
			bytes = (double)plan.bytes;
		plan_free(&plan);
	}
	diag_list_free(&diags);
	return bytes;
}

size_t bench_sweep(const struct test_case *tc, const struct shape *l, long long max_size,
		   unsigned long long max_alloc, unsigned long long global_mem, struct shape *sizes,
		   size_t room)
{
	size_t count = 0;
	/* Inputs from data files (a captured launch's) are of the case's own sizes: larger
	 * ones would read past them, and smaller ones time another workload. */
	for (size_t b = 0; b < tc->nbuffers; b++)
		if (tc->buffers[b].init.kind == INIT_FILE) {
			for (size_t s = 0; s < tc->nsizes && count < room; s++)
				if (shape_volume(&tc->sizes[s]) <= max_size)
					sizes[count++] = tc->sizes[s];
			return count;
		}
	/* An N-D case sweeps squares and cubes: each dimension 2^j, from 2^10 elements. */
	unsigned dims = tc->nsizes ? tc->sizes[0].dims : 1;
	/* ... and no smaller than a work-group in any dimension. */
	int first = (SWEEP_FIRST_LOG2 + (int)dims - 1) / (int)dims;
	for (unsigned d = 0; dims > 1 && d < dims && d < l->dims; d++)
		while ((1LL << first) < l->d[d])
			first++;
	for (int j = first; j * (int)dims < 62 && count < room; j++) {
		struct shape n = { .dims = dims, .d = { 1, 1, 1 } };
		for (unsigned d = 0; d < dims; d++)
			n.d[d] = 1LL << j;
		if (shape_volume(&n) > max_size)
			break;
		struct plan plan;
		struct diag_list diags = { 0 };
		bool fits = true;
		/* A size the case refuses stays in: its row says why. */
		if (plan_build(tc, &n, l, 1, &plan, &diags) == 0) {
			double total = 0;
			for (size_t b = 0; b < tc->nbuffers; b++) {
				size_t bytes = plan_buffer_bytes(tc, &plan, b);
				fits &= max_alloc == 0 || bytes <= max_alloc;
				total += (double)bytes;
			}
			fits &= global_mem == 0 || total <= (double)global_mem / 2;
			plan_free(&plan);
		}
		diag_list_free(&diags);
		if (!fits)
			break;
		sizes[count++] = n;
	}
	return count;
}

/* The copy kernel's bandwidth by N, on the target being measured. */
struct copy_rate {
	long long n;
	double gbs;
};

struct bench_state {
	const struct bench_request *rq;
	FILE *out;
	const struct test_case *tc;
	const struct target *target;
	struct copy_rate *copies;
	size_t ncopies;
	bool measuring_copy;
	struct bench_row *rows;
	size_t nrows;
	bool all_pass;
	/* The cases' rows, and those of them that were no skip: the copy kernel's rows are
	 * the yardstick, not what was asked to be timed. */
	size_t case_rows, case_rows_measured;
};

/* The copy kernel's bandwidth at as many elements as n holds. */
static double copy_gbs(const struct bench_state *st, const struct shape *n)
{
	for (size_t i = 0; i < st->ncopies; i++)
		if (st->copies[i].n == shape_volume(n))
			return st->copies[i].gbs;
	return 0;
}

/* Keeps the copy kernel's best bandwidth at n over its work-group sizes. */
static void note_copy(struct bench_state *st, long long n, double gbs)
{
	for (size_t i = 0; i < st->ncopies; i++) {
		if (st->copies[i].n == n) {
			st->copies[i].gbs = gbs > st->copies[i].gbs ? gbs : st->copies[i].gbs;
			return;
		}
	}
	st->copies = xreallocarray(st->copies, st->ncopies + 1, sizeof *st->copies);
	st->copies[st->ncopies++] = (struct copy_rate){ n, gbs };
}

static double gbs_of(const struct bench_row *row)
{
	return row->median_ms > 0 ? row->bytes / (row->median_ms * 1e-3) / 1e9 : 0;
}

static void print_header(const struct bench_state *st)
{
	if (st->rq->format == BENCH_TEXT)
		fprintf(st->out, "%-34s %-12s %-12s %-8s %10s %10s %7s %9s %11s %8s\n", "case",
			"target", "N", "L", "median ms", "min ms", "spread", "GB/s", "elements/s",
			"of copy");
	else if (st->rq->format == BENCH_CSV)
		fprintf(st->out, "case,target,N,L,verdict,median_ms,min_ms,spread,bytes,gb_s,"
				 "elements_s,copy_gb_s,of_copy\n");
}

/* Writes text to out as a CSV field, or as a JSON string. */
static void put_text(FILE *out, const char *text, bool json)
{
	struct strbuf sb = { 0 };
	if (json)
		json_string(&sb, text);
	else
		csv_string(&sb, text);
	fputs(sb.data ? sb.data : "", out);
	strbuf_free(&sb);
}

static void print_row(const struct bench_state *st, const struct bench_row *row)
{
	char n[SHAPE_TEXT_MAX], l[SHAPE_TEXT_MAX];
	shape_format(&row->n, n);
	shape_format(&row->l, l);
	bool pass = strcmp(row->verdict, "pass") == 0;
	double gbs = gbs_of(row);
	double per_s = row->median_ms > 0 ? row->elements / (row->median_ms * 1e-3) : 0;
	double of_copy = row->copy_gbs > 0 ? gbs / row->copy_gbs : 0;
	FILE *out = st->out;
	switch (st->rq->format) {
	case BENCH_TEXT:
		fprintf(out, "%-34s %-12s %-12s %-8s ", row->case_name, row->target, n, l);
		if (pass)
			fprintf(out, "%10.4f %10.4f %6.1f%% %9.2f %11.3g %8.2f\n", row->median_ms,
				row->min_ms, 100 * row->spread, gbs, per_s, of_copy);
		else
			fprintf(out, "%s: %s\n", row->verdict, row->why ? row->why : "");
		break;
	case BENCH_CSV:
		put_text(out, row->case_name, false);
		fprintf(out, ",%s,%s,%s,%s,", row->target, n, l, row->verdict);
		if (pass)
			fprintf(out, "%.6f,%.6f,%.4f,%.0f,%.4f,%.6g,%.4f,%.4f\n", row->median_ms,
				row->min_ms, row->spread, row->bytes, gbs, per_s, row->copy_gbs,
				of_copy);
		else
			fprintf(out, ",,,,,,,\n");
		break;
	case BENCH_JSON:
		fputs("{\"case\":", out);
		put_text(out, row->case_name, true);
		fputs(",\"target\":", out);
		put_text(out, row->target, true);
		fprintf(out, ",\"N\":\"%s\",\"L\":\"%s\",\"verdict\":\"%s\"", n, l, row->verdict);
		if (pass)
			fprintf(out,
				",\"median_ms\":%.6f,\"min_ms\":%.6f,\"spread\":%.4f,\"bytes\":%.0f,"
				"\"gb_s\":%.4f,\"elements_s\":%.6g,\"copy_gb_s\":%.4f,\"of_copy\":%.4f",
				row->median_ms, row->min_ms, row->spread, row->bytes, gbs, per_s,
				row->copy_gbs, of_copy);
		if (row->why) {
			fputs(",\"why\":", out);
			put_text(out, row->why, true);
		}
		fputs("}\n", out);
		break;
	}
	fflush(out);
}

static void take_result(void *ctx, struct result *r)
{
	struct bench_state *st = ctx;
	if (r->n.dims == 0 && r->verdict == VERDICT_PASS)
		return; /* a build that worked: its runs follow */
	struct bench_row row = {
		.case_name = xstrdup(st->tc->name),
		.target = xstrdup(r->target),
		.n = r->n,
		.l = r->l,
		.verdict = xstrdup(verdict_name(r->verdict)),
		.why = r->verdict == VERDICT_PASS ? NULL : xstrdup(r->message ? r->message : ""),
		.median_ms = r->round_median_ns / 1e6,
		.min_ms = r->round_min_ns / 1e6,
		.spread = r->round_median_ns ? (double)(r->round_max_ns - r->round_min_ns) /
						       (double)r->round_median_ns
					     : 0,
		.elements = (double)shape_volume(&r->n),
	};
	if (r->n.dims > 0)
		row.bytes = case_bytes(st->tc, &r->n, &r->l, st->target->limits.compute_units);
	if (st->measuring_copy) {
		row.copy_gbs = gbs_of(&row);
		if (r->verdict == VERDICT_PASS && r->n.dims == 1)
			note_copy(st, r->n.d[0], row.copy_gbs);
	} else {
		row.copy_gbs = copy_gbs(st, &row.n);
		/* A size the device cannot hold is no fault of the kernel's. */
		st->all_pass &= r->verdict == VERDICT_PASS || r->verdict == VERDICT_SKIP;
		st->case_rows++;
		st->case_rows_measured += r->verdict != VERDICT_SKIP;
	}
	print_row(st, &row);
	st->rows = xreallocarray(st->rows, st->nrows + 1, sizeof *st->rows);
	st->rows[st->nrows++] = row;
}

/* Runs tc on the target named `target` at `sizes`, each round timed. */
static void measure(struct bench_state *st, struct test_case *tc, const struct shape *sizes,
		    size_t nsizes)
{
	const struct bench_request *rq = st->rq;
	struct run_options opt = { .sizes = sizes,
				   .nsizes = nsizes,
				   .locals = rq->locals,
				   .nlocals = rq->nlocals,
				   .repeat = rq->rounds + 1,
				   .warmup = 1,
				   .timed = true };
	char *pattern[] = { st->target->name };
	struct selection one;
	selection_open(&one, pattern, 1, &tc, 1, &opt, rq->timeout_s);
	st->tc = tc;
	for (size_t i = 0; i < one.count && !interrupt_signal(); i++)
		if (strcmp(selection_target(&one, i)->name, st->target->name) == 0)
			selection_run(&one, i, take_result, st);
	selection_free(&one);
}

/* The sizes to run tc at on the target: --size, or the sweep at its largest work-group. */
static size_t sizes_for(const struct bench_state *st, const struct test_case *tc,
			struct shape *sizes)
{
	const struct bench_request *rq = st->rq;
	if (rq->nsizes) {
		size_t n = rq->nsizes < SWEEP_MAX ? rq->nsizes : SWEEP_MAX;
		memcpy(sizes, rq->sizes, n * sizeof *sizes);
		return n;
	}
	const struct shape *locals = rq->nlocals ? rq->locals : tc->locals;
	size_t nlocals = rq->nlocals ? rq->nlocals : tc->nlocals;
	const struct shape *largest = &locals[0];
	for (size_t i = 1; i < nlocals; i++)
		if (shape_volume(&locals[i]) > shape_volume(largest))
			largest = &locals[i];
	return bench_sweep(tc, largest, rq->max_size, st->target->limits.max_alloc,
			   st->target->limits.global_mem, sizes, SWEEP_MAX);
}

/* The plot: throughput against N for each case and work-group size, one line each, and
 * each target's copy bandwidth on top; written by gnuplot as SVG. */
int bench_plot(const struct bench_row *rows, size_t nrows, const char *path)
{
	char script[] = "/tmp/clharness-plot-XXXXXX";
	int fd = mkstemp(script);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	fprintf(f,
		"set terminal svg size 1200,600 dynamic background rgb 'white'\n"
		"set output '%s'\n"
		"set logscale x 2\nset format x '2^{%%L}'\n"
		"set xlabel 'N (elements)'\nset ylabel 'GB/s (median round)'\n"
		/* Beside the plot: a dozen series' names over the curves hide them. */
		"set key outside right top Left reverse\nset grid\n",
		path);
	/* One series a (target, case, work-group size); the copy kernel's are dashed. */
	struct wordlist {
		char **items;
		size_t count;
	} series = { 0 };
	for (size_t i = 0; i < nrows; i++) {
		const struct bench_row *row = &rows[i];
		char l[SHAPE_TEXT_MAX];
		char *name = xasprintf("%s %s L=%s", row->target, row->case_name,
				       shape_format(&row->l, l));
		bool seen = false;
		for (size_t s = 0; s < series.count && !seen; s++)
			seen = strcmp(series.items[s], name) == 0;
		if (seen) {
			free(name);
			continue;
		}
		series.items = xreallocarray(series.items, series.count + 1, sizeof *series.items);
		series.items[series.count++] = name;
	}
	for (size_t s = 0; s < series.count; s++) {
		fprintf(f, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < nrows; i++) {
			const struct bench_row *row = &rows[i];
			char l[SHAPE_TEXT_MAX];
			char *name = xasprintf("%s %s L=%s", row->target, row->case_name,
					       shape_format(&row->l, l));
			if (strcmp(name, series.items[s]) == 0 &&
			    strcmp(row->verdict, "pass") == 0 && row->n.dims == 1)
				fprintf(f, "%lld %.4f\n", row->n.d[0], gbs_of(row));
			free(name);
		}
		fputs("EOD\n", f);
	}
	fputs("plot ", f);
	for (size_t s = 0; s < series.count; s++) {
		bool copy = strstr(series.items[s], "bench/copy") != NULL;
		fprintf(f, "%s$s%zu with linespoints title '%s' noenhanced%s", s ? ", " : "", s,
			series.items[s], copy ? " dashtype 2 linewidth 2" : "");
		free(series.items[s]);
	}
	fputs("\n", f);
	free(series.items);
	fclose(f);
	char *command = xasprintf("gnuplot %s", script);
	int status = system(command);
	free(command);
	unlink(script);
	return status == 0 ? 0 : -1;
}

/* The plot as an <svg> element to put in a page: gnuplot's file without its XML prolog
 * and doctype. False when gnuplot cannot draw it. */
static bool inline_plot(struct strbuf *out, const struct bench_row *rows, size_t nrows,
			const char *dir)
{
	char *path = xasprintf("%s/.bench-plot-%ld.svg", dir, (long)getpid());
	bool drawn = bench_plot(rows, nrows, path) == 0;
	size_t len = 0;
	char *svg = drawn ? read_file(path, &len) : NULL;
	unlink(path);
	free(path);
	const char *start = svg ? strstr(svg, "<svg") : NULL;
	if (start)
		strbuf_puts(out, start);
	free(svg);
	return start != NULL;
}

/* The rows as one self-contained page: the plot inline, then a table of every row. */
static int bench_html(const struct bench_row *rows, size_t nrows, const char *dir)
{
	struct strbuf page = { 0 };
	size_t failed = 0;
	for (size_t i = 0; i < nrows; i++)
		failed += strcmp(rows[i].verdict, "pass") != 0;
	char *title = xasprintf("clharness bench: %zu row%s, %zu without a figure", nrows,
				nrows == 1 ? "" : "s", failed);
	html_page_begin(&page, title, "clharness bench", NULL);
	strbuf_puts(&page, "<section id=\"plot\"><h2>Throughput against size</h2>");
	if (!inline_plot(&page, rows, nrows, dir))
		strbuf_puts(&page, "<p class=\"incomplete\">No plot: gnuplot (Debian's gnuplot-nox) "
				   "could not draw one here.</p>");
	strbuf_puts(&page, "</section>\n<section id=\"rows\"><h2>Every size</h2><table><thead>"
			   "<tr><th>case</th><th>target</th><th>N</th><th>L</th><th>verdict</th>"
			   "<th>median ms</th><th>min ms</th><th>spread</th><th>GB/s</th>"
			   "<th>of copy</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct bench_row *row = &rows[i];
		char n[SHAPE_TEXT_MAX], l[SHAPE_TEXT_MAX];
		shape_format(&row->n, n);
		shape_format(&row->l, l);
		bool pass = strcmp(row->verdict, "pass") == 0;
		strbuf_printf(&page, "<tr class=\"%s\"><td>", pass ? "pass" : "failed");
		xml_text(&page, row->case_name);
		strbuf_puts(&page, "</td><td>");
		xml_text(&page, row->target);
		strbuf_printf(&page, "</td><td>%s</td><td>%s</td><td class=\"v\">", n, l);
		xml_text(&page, row->verdict);
		if (pass) {
			double gbs = gbs_of(row);
			strbuf_printf(&page,
				      "</td><td>%.4f</td><td>%.4f</td><td>%.1f %%</td><td>%.2f</td>"
				      "<td>%s%.2f</td></tr>\n",
				      row->median_ms, row->min_ms, 100 * row->spread, gbs,
				      row->copy_gbs > 0 ? "" : "unknown ",
				      row->copy_gbs > 0 ? gbs / row->copy_gbs : 0);
		} else {
			strbuf_puts(&page, "</td><td colspan=\"5\">");
			xml_text(&page, row->why ? row->why : "");
			strbuf_puts(&page, "</td></tr>\n");
		}
	}
	strbuf_puts(&page, "</tbody></table></section>\n");
	html_page_end(&page);
	int status = html_write_page(dir, "index.html", page.data);
	strbuf_free(&page);
	free(title);
	return status;
}

int bench_run(const struct bench_request *rq, struct test_case **cases, size_t ncases, FILE *out)
{
	if (rq->plot_path && system("gnuplot --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "clharness: --plot draws with gnuplot, which is not installed: "
				"install the Debian package gnuplot-nox\n");
		return 2;
	}
	struct diag_list diags = { 0 };
	struct test_case *copy = rq->copy_case ? case_load(rq->copy_case, &diags) : NULL;
	/* Without the yardstick the rows still have their figures, and say so. */
	if (rq->copy_case && copy == NULL)
		fprintf(stderr,
			"clharness: warning: cannot load the copy kernel's case %s%s%s: rows leave "
			"out the fraction of copy bandwidth\n",
			rq->copy_case, diags.count ? ": " : "",
			diags.count ? diags.items[0].message : "");
	diag_list_free(&diags);

	struct run_options list_only = { .repeat = 1 };
	struct selection sel;
	selection_open(&sel, rq->patterns, rq->npatterns, NULL, 0, &list_only, rq->timeout_s);
	struct bench_state st = { .rq = rq, .out = out, .all_pass = true };
	size_t devices = 0;
	for (size_t t = 0; t < sel.count; t++)
		devices += target_can(selection_target(&sel, t), CAN_TIME);
	int status = 2;
	if (devices == 0) {
		fprintf(stderr, "clharness: no OpenCL device to time kernels on%s\n",
			rq->npatterns ? " among those --device selects" : "");
		goto out;
	}
	print_header(&st);
	for (size_t t = 0; t < sel.count && !interrupt_signal(); t++) {
		st.target = selection_target(&sel, t);
		/* A simulator's time is the simulation's, not the kernel's. */
		if (!target_can(st.target, CAN_TIME))
			continue;
		st.ncopies = 0;
		struct shape sizes[SWEEP_MAX], all[SWEEP_MAX];
		size_t nall = 0;
		for (size_t c = 0; c < ncases; c++) {
			size_t n = sizes_for(&st, cases[c], sizes);
			/* The copy runs at as many elements as each shape holds. */
			for (size_t i = 0; i < n; i++) {
				struct shape flat = shape_1d(shape_volume(&sizes[i]));
				bool held = false;
				for (size_t j = 0; j < nall && !held; j++)
					held = shape_equal(&all[j], &flat);
				if (!held && nall < SWEEP_MAX)
					all[nall++] = flat;
			}
		}
		if (copy && nall > 0) {
			st.measuring_copy = true;
			measure(&st, copy, all, nall);
			st.measuring_copy = false;
		}
		for (size_t c = 0; c < ncases && !interrupt_signal(); c++) {
			size_t n = sizes_for(&st, cases[c], sizes);
			if (n > 0)
				measure(&st, cases[c], sizes, n);
		}
		free(st.copies);
		st.copies = NULL;
	}
	status = st.all_pass ? 0 : 1;
	/* A bench that timed none of its cases has no figure to give, whatever the copy
	 * kernel did: as run's all-skip run, it is not a clean exit. */
	if (status == 0 && st.case_rows_measured == 0 && !interrupt_signal()) {
		char *why = st.case_rows == 0
				    ? xstrdup("nothing was measured: no case had a size to time "
					      "(see --size and --max-size)")
				    : xasprintf("nothing was measured: %zu row%s, every one a skip "
						"(each row says why)",
						st.case_rows, st.case_rows == 1 ? "" : "s");
		fprintf(stderr, "clharness: %s\n", why);
		annotate_diag(NULL, 0, 0, DIAG_WARNING, why);
		free(why);
		status = EXIT_SKIP;
	}
	if (rq->plot_path && st.nrows > 0 && !interrupt_signal() &&
	    bench_plot(st.rows, st.nrows, rq->plot_path) < 0) {
		fprintf(stderr, "clharness: gnuplot could not draw %s\n", rq->plot_path);
		status = 2;
	}
	if (rq->html_dir && bench_html(st.rows, st.nrows, rq->html_dir) < 0) {
		fprintf(stderr, "clharness: cannot write the HTML report in '%s': %s\n",
			rq->html_dir, strerror(errno));
		status = 2;
	}
out:
	bench_rows_free(st.rows, st.nrows);
	selection_free(&sel);
	case_free(copy);
	return status;
}

void bench_rows_free(struct bench_row *rows, size_t nrows)
{
	for (size_t i = 0; i < nrows; i++) {
		free(rows[i].case_name);
		free(rows[i].target);
		free(rows[i].verdict);
		free(rows[i].why);
	}
	free(rows);
}

int bench_read_csv(const char *path, struct bench_row **rows, size_t *nrows, char **why)
{
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL) {
		*why = xasprintf("cannot read %s: %s", path, file_error(errno));
		return -1;
	}
	int status = 0;
	size_t lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && status == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		if (lineno++ == 0)
			continue; /* the header */
		char *field[13] = { 0 };
		size_t nfield = 0;
		for (char *p = line; nfield < 13; nfield++) {
			field[nfield] = p;
			char *comma = strchr(p, ',');
			if (comma == NULL) {
				nfield++;
				break;
			}
			*comma = '\0';
			p = comma + 1;
		}
		struct bench_row row = { 0 };
		if (nfield != 13 || shape_parse(field[2], &row.n) < 0 ||
		    shape_parse(field[3], &row.l) < 0) {
			*why = xasprintf("%s:%zu: not a row of `clharness bench --csv`", path,
					 lineno);
			status = -1;
			break;
		}
		row.case_name = xstrdup(field[0]);
		row.target = xstrdup(field[1]);
		row.verdict = xstrdup(field[4]);
		row.median_ms = atof(field[5]);
		row.min_ms = atof(field[6]);
		row.spread = atof(field[7]);
		row.bytes = atof(field[8]);
		row.copy_gbs = atof(field[11]);
		row.elements = (double)shape_volume(&row.n);
		*rows = xreallocarray(*rows, *nrows + 1, sizeof **rows);
		(*rows)[(*nrows)++] = row;
	}
	free(text);
	return status;
}

/* One table a case: a row a size, a column a work-group size, GB/s and its fraction of
 * the copy bandwidth in each cell. */
static void page_table(FILE *out, const struct bench_row *rows, size_t nrows, const char *target,
		       const char *name)
{
	struct shape ls[16];
	size_t nls = 0;
	for (size_t i = 0; i < nrows; i++) {
		const struct bench_row *r = &rows[i];
		if (strcmp(r->target, target) != 0 || strcmp(r->case_name, name) != 0)
			continue;
		bool held = false;
		for (size_t k = 0; k < nls && !held; k++)
			held = shape_equal(&ls[k], &r->l);
		if (!held && nls < 16)
			ls[nls++] = r->l;
	}
	fprintf(out, "\n### %s\n\n| N |", name);
	for (size_t k = 0; k < nls; k++) {
		char l[SHAPE_TEXT_MAX];
		fprintf(out, " L=%s |", shape_format(&ls[k], l));
	}
	fputs("\n|---|", out);
	for (size_t k = 0; k < nls; k++)
		fputs("---|", out);
	fputs("\n", out);
	for (size_t i = 0; i < nrows; i++) {
		const struct bench_row *r = &rows[i];
		if (strcmp(r->target, target) != 0 || strcmp(r->case_name, name) != 0 ||
		    !shape_equal(&r->l, &ls[0]))
			continue;
		char n[SHAPE_TEXT_MAX];
		fprintf(out, "| %s |", shape_format(&r->n, n));
		for (size_t k = 0; k < nls; k++) {
			const struct bench_row *cell = NULL;
			for (size_t j = 0; j < nrows && !cell; j++)
				if (strcmp(rows[j].target, target) == 0 &&
				    strcmp(rows[j].case_name, name) == 0 &&
				    shape_equal(&rows[j].n, &r->n) &&
				    shape_equal(&rows[j].l, &ls[k]))
					cell = &rows[j];
			if (cell == NULL)
				fputs(" |", out);
			else if (strcmp(cell->verdict, "pass") != 0)
				fprintf(out, " %s |", cell->verdict);
			else if (cell->copy_gbs > 0)
				fprintf(out, " %.1f GB/s (%.2f) |", gbs_of(cell),
					gbs_of(cell) / cell->copy_gbs);
			else
				fprintf(out, " %.1f GB/s |", gbs_of(cell));
		}
		fputs("\n", out);
	}
}

int bench_page(FILE *out, char *const *paths, size_t npaths, const char *plots_dir)
{
	struct bench_row *rows = NULL;
	size_t nrows = 0;
	int status = 0;
	for (size_t f = 0; f < npaths && status == 0; f++) {
		char *why = NULL;
		if (bench_read_csv(paths[f], &rows, &nrows, &why) < 0) {
			fprintf(stderr, "clharness: %s\n", why);
			free(why);
			status = 2;
		}
	}
	if (status == 0) {
		fputs("# clharness bench results\n\n<!-- Written by `make bench-page` from the "
		      "stored results of `clharness bench --csv`: measure again, not edit. -->\n\n"
		      "GB/s is the bytes one round moves (the case's bytes: expression where a "
		      "kernel reads a buffer more than once, else every global buffer once) per "
		      "median round "
		      "(device time of all its launches, from profiling events, after a warm-up); "
		      "in brackets its fraction of the device's copy bandwidth, measured by "
		      "`cases/bench/copy_float4.yaml` at the same N in the same run. ",
		      out);
		fputs("Results: ", out);
		for (size_t f = 0; f < npaths; f++)
			fprintf(out, "%s`%s`", f ? ", " : "", paths[f]);
		fputs(".\n", out);
	}
	/* A section a target, in the order the files name them. */
	for (size_t i = 0; i < nrows && status == 0; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(rows[j].target, rows[i].target) != 0;
		if (!first)
			continue;
		const char *target = rows[i].target;
		struct bench_row *mine = NULL;
		size_t nmine = 0;
		for (size_t j = 0; j < nrows; j++) {
			if (strcmp(rows[j].target, target) != 0)
				continue;
			mine = xreallocarray(mine, nmine + 1, sizeof *mine);
			mine[nmine++] = rows[j];
		}
		char *svg = xasprintf("%s/bench-%s.svg", plots_dir, target);
		fprintf(out, "\n## %s\n\n", target);
		if (bench_plot(mine, nmine, svg) == 0) {
			const char *slash = strrchr(svg, '/');
			fprintf(out, "![GB/s against N on %s](%s)\n", target,
				slash ? slash + 1 : svg);
		} else {
			fprintf(stderr, "clharness: gnuplot could not draw %s\n", svg);
			status = 2;
		}
		free(svg);
		for (size_t j = 0; j < nmine; j++) {
			bool seen = false;
			for (size_t k = 0; k < j && !seen; k++)
				seen = strcmp(mine[k].case_name, mine[j].case_name) == 0;
			if (!seen)
				page_table(out, mine, nmine, target, mine[j].case_name);
		}
		free(mine);
	}
	bench_rows_free(rows, nrows);
	return status;
}
