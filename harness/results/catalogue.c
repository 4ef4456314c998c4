/* catalogue.c - renders the catalogue page from the cases and the results recorded for
 * them. */
#include "config.h"

#include "results/catalogue.h"

#include <search.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Distinct strings, in the order first added: found findings, verdicts, device columns.
 * A set that may grow large (the targets of thousands of results) is indexed by a hash
 * table, so that adding stays constant time; small ones are searched in order. */
struct wordset {
	char **items;
	size_t count;
	bool indexed;
	struct hsearch_data index;
};

/* Indexes an empty set that will hold at most `capacity` words. */
static void wordset_index(struct wordset *w, size_t capacity)
{
	w->indexed = hcreate_r(capacity * 2 + 16, &w->index) != 0;
}

/* The position of `word` in the set, or -1. */
static long wordset_find(struct wordset *w, const char *word)
{
	if (w->indexed) {
		ENTRY *found = NULL;
		ENTRY probe = { .key = (char *)word };
		return hsearch_r(probe, FIND, &found, &w->index) && found
			       ? (long)(uintptr_t)found->data - 1
			       : -1;
	}
	for (size_t i = 0; i < w->count; i++)
		if (strcmp(w->items[i], word) == 0)
			return (long)i;
	return -1;
}

/* Adds `word`, which the set takes, unless an equal one is there. Returns its position. */
static size_t wordset_add(struct wordset *w, char *word)
{
	long at = wordset_find(w, word);
	if (at >= 0) {
		free(word);
		return (size_t)at;
	}
	w->items = xreallocarray(w->items, w->count + 1, sizeof *w->items);
	w->items[w->count++] = word;
	if (w->indexed) {
		ENTRY *entered;
		ENTRY e = { .key = word, .data = (void *)(uintptr_t)w->count };
		hsearch_r(e, ENTER, &entered, &w->index);
	}
	return w->count - 1;
}

static void wordset_free(struct wordset *w)
{
	if (w->indexed)
		hdestroy_r(&w->index);
	for (size_t i = 0; i < w->count; i++)
		free(w->items[i]);
	free(w->items);
}

static bool is_pocl(const char *target)
{
	return strncmp(target, "pocl", 4) == 0;
}

/* Text for a table cell: a pipe would end the cell, and * or _ would start emphasis. */
static void put_cell_text(struct strbuf *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '|' || *p == '*' || *p == '_' || *p == '<' || *p == '`')
			strbuf_puts(out, "\\");
		strbuf_append(out, p, 1);
	}
}

/* One finding in words: "race, read-write on local memory, lines 12 and 14". */
static char *finding_words(const struct recorded_finding *f)
{
	struct strbuf s = { 0 };
	if (f->severity && strcmp(f->severity, "warning") == 0)
		strbuf_puts(&s, "warning: ");
	strbuf_puts(&s, f->kind ? f->kind : "finding");
	if (f->what && (!f->kind || strcmp(f->what, f->kind) != 0))
		strbuf_printf(&s, ", %s", f->what);
	if (f->space && *f->space)
		strbuf_printf(&s, " on %s memory", f->space);
	if (f->other_line > 0 && f->other_line != f->line)
		strbuf_printf(&s, ", lines %d and %d", f->line, f->other_line);
	else if (f->line > 0)
		strbuf_printf(&s, ", line %d", f->line);
	return strbuf_take(&s);
}

/* How many runs gave each verdict: "pass (9 runs)" or "6 wrong-output, 3 pass". */
static void put_verdict_counts(struct strbuf *out, const char *const *verdicts, size_t n)
{
	struct wordset seen = { 0 };
	for (size_t i = 0; i < n; i++)
		wordset_add(&seen, xstrdup(verdicts[i]));
	if (seen.count == 1) {
		strbuf_printf(out, "%s (%zu run%s)", seen.items[0], n, n == 1 ? "" : "s");
	} else {
		for (size_t v = 0; v < seen.count; v++) {
			size_t k = 0;
			for (size_t i = 0; i < n; i++)
				k += strcmp(verdicts[i], seen.items[v]) == 0;
			strbuf_printf(out, "%s%zu %s", v ? ", " : "", k, seen.items[v]);
		}
	}
	wordset_free(&seen);
}

/* One recorded result, placed: the order it was read in, and its device column. */
struct placed {
	const struct recorded_result *r;
	size_t order;
	size_t column; /* SIMULATED for a simulator's result */
};
#define SIMULATED SIZE_MAX

/* What the simulator said about one case, over all its runs (`runs`, the case's entries
 * in the order read); sets *buggy when it found an error. */
static void put_simulator_cell(struct strbuf *out, const struct placed *runs, size_t nentries,
			       bool *buggy)
{
	struct wordset found = { 0 }, shapes = { 0 };
	const char **outputs = NULL;
	size_t nruns = 0, wrong = 0;
	*buggy = false;
	for (size_t i = 0; i < nentries; i++) {
		const struct recorded_result *r = runs[i].r;
		if (runs[i].column != SIMULATED)
			continue;
		outputs = xreallocarray(outputs, nruns + 1, sizeof *outputs);
		outputs[nruns++] = r->output ? r->output : r->verdict;
		wrong += r->output && strcmp(r->output, "wrong-output") == 0;
		if (r->shape && strcmp(r->shape, "build") != 0)
			wordset_add(&shapes, xstrdup(r->shape));
		for (size_t f = 0; f < r->nfindings; f++) {
			*buggy |= r->findings[f].severity &&
				  strcmp(r->findings[f].severity, "error") == 0;
			wordset_add(&found, finding_words(&r->findings[f]));
		}
	}
	if (nruns == 0) {
		strbuf_puts(out, "not run");
	} else if (found.count == 0) {
		put_verdict_counts(out, outputs, nruns);
	} else {
		for (size_t i = 0; i < found.count; i++) {
			strbuf_puts(out, i ? "; " : "");
			put_cell_text(out, found.items[i]);
		}
		if (wrong > 0)
			strbuf_printf(out, "; output wrong in %zu of %zu run%s", wrong, nruns,
				      nruns == 1 ? "" : "s");
	}
	/* The shapes simulated: a finding holds at these, not at the devices' sizes. */
	for (size_t i = 0; i < shapes.count; i++) {
		strbuf_puts(out, i ? ", " : " at ");
		put_cell_text(out, shapes.items[i]);
	}
	free(outputs);
	wordset_free(&found);
	wordset_free(&shapes);
}

/* One real device's verdicts for a case, from its runs there (in the order read);
 * *all_pass says whether it ran it and every run passed. */
static void put_device_cell(struct strbuf *out, const struct placed *runs, size_t n, bool *all_pass)
{
	const char **verdicts = xcalloc(n ? n : 1, sizeof *verdicts);
	*all_pass = true;
	for (size_t i = 0; i < n; i++) {
		verdicts[i] = runs[i].r->verdict;
		*all_pass &= strcmp(runs[i].r->verdict, "pass") == 0;
	}
	if (n == 0) {
		strbuf_puts(out, "not run");
		*all_pass = false;
	} else {
		put_verdict_counts(out, verdicts, n);
	}
	free(verdicts);
}

static char *topic_of(const char *name)
{
	const char *slash = strchr(name, '/');
	return slash ? xstrndup(name, (size_t)(slash - name)) : xstrdup("");
}

static int by_name(const void *a, const void *b)
{
	const struct test_case *x = *(const struct test_case *const *)a;
	const struct test_case *y = *(const struct test_case *const *)b;
	return strcmp(x->name, y->name);
}

/* Entries by case, then as read: each case's runs lie together, in their own order. */
static int by_case(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	int c = strcmp(x->r->case_name, y->r->case_name);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* Entries by device column, then as read. */
static int by_column(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* The first of the sorted entries whose case is `name` or after it. */
static size_t first_of_case(const struct placed *entries, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(entries[mid].r->case_name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The page's opening: what it is, where its results came from, and the counts. */
static void put_header(struct strbuf *out, const struct catalogue_source *sources, size_t nsources,
		       const struct wordset *devices, const struct catalogue_counts *c)
{
	strbuf_puts(out, "# The clharness catalogue\n\n"
			 "<!-- Written by `make catalogue` (`clharness catalogue`) from cases/ and "
			 "recorded results: edit the cases, not this page. -->\n\n"
			 "Each case teaches one fact about synchronisation in OpenCL and proves it "
			 "on every backend. The Oclgrind column lists what the simulator found, "
			 "at the kernel's source lines, over the case's simulated sizes; each "
			 "device column counts the verdicts of the case's runs there (`ran` "
			 "goldens accept any output from a racy kernel). A racy kernel's output "
			 "on a device depends on how its driver compiled it: on PoCL, `clharness "
			 "run` has each kernel compiled once, as one generic function that "
			 "serves all its launch shapes (POCL_WORK_GROUP_SPECIALIZATION in "
			 "clharness(1)).\n\n");
	strbuf_puts(out, "Results:");
	for (size_t s = 0; s < nsources; s++) {
		struct wordset targets = { 0 };
		const struct recorded_list *list = sources[s].results;
		wordset_index(&targets, list->count);
		for (size_t i = 0; i < list->count; i++)
			wordset_add(&targets, xstrdup(list->items[i].target));
		strbuf_printf(out, "%s `%s` (", s ? ";" : "", sources[s].label);
		for (size_t t = 0; t < targets.count; t++)
			strbuf_printf(out, "%s%s", t ? ", " : "", targets.items[t]);
		wordset_free(&targets);
		strbuf_puts(out, ")");
	}
	strbuf_puts(out, nsources ? ".\n\n" : " none.\n\n");
	strbuf_printf(out,
		      "**%zu cases** in %zu topics. %zu hold a bug that Oclgrind reports at its "
		      "source line",
		      c->cases, c->topics, c->buggy);
	bool pocl = false;
	for (size_t d = 0; d < devices->count; d++)
		pocl |= is_pocl(devices->items[d]);
	if (pocl)
		strbuf_printf(out,
			      "; **%zu of those gave the right output on PoCL in every run recorded "
			      "here**, so comparing outputs alone would have passed them",
			      c->right_on_pocl);
	strbuf_puts(out, ".\n");
}

char *catalogue_markdown(struct test_case *const *cases, size_t ncases,
			 const struct catalogue_source *sources, size_t nsources,
			 struct catalogue_counts *counts)
{
	struct test_case **sorted = xcalloc(ncases ? ncases : 1, sizeof *sorted);
	memcpy(sorted, cases, ncases * sizeof *sorted);
	qsort(sorted, ncases, sizeof *sorted, by_name);

	/* Every result once, placed in its device's column, then grouped by case: the page
	 * costs the results' sorting and the table's cells, whatever the number of devices. */
	size_t nentries = 0;
	for (size_t s = 0; s < nsources; s++)
		nentries += sources[s].results->count;
	struct placed *entries = xcalloc(nentries ? nentries : 1, sizeof *entries);
	struct wordset devices = { 0 }; /* real devices, in the order they first report */
	wordset_index(&devices, nentries);
	nentries = 0;
	for (size_t s = 0; s < nsources; s++)
		for (size_t i = 0; i < sources[s].results->count; i++) {
			const struct recorded_result *r = &sources[s].results->items[i];
			entries[nentries] = (struct placed){
				.r = r,
				.order = nentries,
				.column = r->simulated ? SIMULATED
						       : wordset_add(&devices, xstrdup(r->target)),
			};
			nentries++;
		}
	qsort(entries, nentries, sizeof *entries, by_case);

	struct catalogue_counts c = { .cases = ncases };
	struct strbuf body = { 0 };
	char *topic = NULL;
	for (size_t k = 0; k < ncases; k++) {
		const struct test_case *tc = sorted[k];
		char *this_topic = topic_of(tc->name);
		if (topic == NULL || strcmp(topic, this_topic) != 0) {
			free(topic);
			topic = this_topic;
			c.topics++;
			strbuf_printf(&body, "\n## %s\n\n| Case | What it shows | Oclgrind |",
				      topic);
			for (size_t d = 0; d < devices.count; d++)
				strbuf_printf(&body, " %s |", devices.items[d]);
			strbuf_puts(&body, "\n|---|---|---|");
			for (size_t d = 0; d < devices.count; d++)
				strbuf_puts(&body, "---|");
			strbuf_puts(&body, "\n");
		} else {
			free(this_topic);
		}

		size_t lo = first_of_case(entries, nentries, tc->name), hi = lo;
		while (hi < nentries && strcmp(entries[hi].r->case_name, tc->name) == 0)
			hi++;
		struct placed *runs = entries + lo;
		struct strbuf sim = { 0 }, cells = { 0 }, right_on = { 0 };
		const char *last_right = NULL; /* joined with "and" once the list is done */
		bool buggy;
		put_simulator_cell(&sim, runs, hi - lo, &buggy);
		qsort(runs, hi - lo, sizeof *runs, by_column);
		size_t at = 0; /* the first of the runs in column d, or past them */
		bool pocl_right = false;
		for (size_t d = 0; d < devices.count; d++) {
			bool all_pass;
			size_t from = at;
			while (at < hi - lo && runs[at].column == d)
				at++;
			strbuf_puts(&cells, " ");
			put_device_cell(&cells, runs + from, at - from, &all_pass);
			strbuf_puts(&cells, " |");
			if (buggy && all_pass) {
				if (last_right)
					strbuf_printf(&right_on, "%s%s", right_on.len ? ", " : "",
						      last_right);
				last_right = devices.items[d];
				pocl_right |= is_pocl(devices.items[d]);
			}
		}
		c.buggy += buggy;
		c.right_on_pocl += pocl_right;

		const char *base = strrchr(tc->name, '/');
		strbuf_printf(&body, "| [%s](../cases/%s.yaml) | ", base ? base + 1 : tc->name,
			      tc->name);
		put_cell_text(&body, tc->about ? tc->about : "");
		/* "Recorded here": a racy kernel's output comes and goes with timing, so a
		 * device that was right in these runs may still show the bug in another. */
		if (last_right)
			strbuf_printf(&body,
				      ". **Right output on %s%s%s in every run recorded here: in "
				      "these runs only Oclgrind's findings show this bug.**",
				      right_on.len ? right_on.data : "",
				      right_on.len ? " and " : "", last_right);
		strbuf_printf(&body, " | %s |%s\n", sim.data ? sim.data : "",
			      cells.data ? cells.data : "");
		strbuf_free(&sim);
		strbuf_free(&cells);
		strbuf_free(&right_on);
	}
	free(topic);

	struct strbuf page = { 0 };
	put_header(&page, sources, nsources, &devices, &c);
	strbuf_puts(&page, body.data ? body.data : "");
	strbuf_free(&body);
	wordset_free(&devices);
	free(entries);
	free(sorted);
	if (counts)
		*counts = c;
	return strbuf_take(&page);
}
