/* golden.c - reads, judges against and writes a case's golden. */
#include "config.h"

#include "results/golden.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

char *golden_path_for(const char *case_path)
{
	const char *at = NULL;
	for (const char *p = case_path; (p = strstr(p, "cases/")) != NULL; p++)
		if (p == case_path || p[-1] == '/')
			at = p;
	if (at == NULL)
		return NULL;
	const char *name = at + strlen("cases/");
	size_t len = strlen(name);
	if (len > 5 && strcmp(name + len - 5, ".yaml") == 0)
		len -= 5;
	else if (len > 4 && strcmp(name + len - 4, ".yml") == 0)
		len -= 4;
	return xasprintf("%.*sexpected/%.*s.expect", (int)(at - case_path), case_path, (int)len,
			 name);
}

static void add_finding_line(struct golden_run *run, const char *text)
{
	run->findings = xreallocarray(run->findings, run->nfindings + 1, sizeof *run->findings);
	run->findings[run->nfindings++] = xstrdup(text);
}

#define VERDICT_BIT(v) (1u << (unsigned)(v))

/* "devices: pass", "devices: ran" or a comma-separated list of verdict names. */
static bool parse_devices(struct golden *g, const char *text, int lineno, struct diag_list *diags)
{
	const char *words = text + strlen("devices: ");
	unsigned mask = 0;
	for (const char *w = words; *w;) {
		size_t len = strcspn(w, ", ");
		char *word = xstrndup(w, len);
		enum verdict v;
		if (strcmp(word, "ran") == 0)
			mask |= VERDICT_BIT(VERDICT_PASS) | VERDICT_BIT(VERDICT_WRONG_OUTPUT);
		else if (verdict_from_name(word, &v))
			mask |= VERDICT_BIT(v);
		else {
			diag_add(diags, DIAG_ERROR, g->path, lineno, (int)(w - text) + 1,
				 "devices: takes pass, ran, or a comma-separated list of verdicts "
				 "such as 'wrong-output' or 'pass, crash'; found '%s'",
				 word);
			free(word);
			return false;
		}
		free(word);
		w += len;
		w += strspn(w, ", ");
	}
	if (mask == 0) {
		diag_add(diags, DIAG_ERROR, g->path, lineno, 10,
			 "devices: needs at least one verdict, such as pass");
		return false;
	}
	g->devices = mask;
	free(g->devices_text);
	g->devices_text = xstrdup(words);
	return true;
}

/* One line of a golden; returns false after reporting what is wrong with it. */
static bool parse_line(struct golden *g, const char *text, int lineno, struct diag_list *diags)
{
	if (text[0] == '\0' || text[0] == '#')
		return true;
	if (text[0] == ' ') {
		const char *finding = text;
		while (*finding == ' ')
			finding++;
		if (g->nruns == 0) {
			diag_add(diags, DIAG_ERROR, g->path, lineno, 1,
				 "a finding line needs a run above it, like 'oclgrind N=256 L=32: "
				 "pass'");
			return false;
		}
		add_finding_line(&g->runs[g->nruns - 1], finding);
		return true;
	}
	if (strncmp(text, "devices: ", 9) == 0)
		return parse_devices(g, text, lineno, diags);
	const char *colon = strrchr(text, ':');
	if (colon == NULL || colon[1] != ' ' || colon == text) {
		diag_add(diags, DIAG_ERROR, g->path, lineno, 1,
			 "expected 'devices: pass|ran', a run such as 'oclgrind N=256 L=32: "
			 "pass', or an indented finding; found '%s'",
			 text);
		return false;
	}
	enum verdict output;
	/* ran: a run whose output varies (a racy kernel on a device), right or wrong. */
	if (strcmp(colon + 2, "ran") != 0 && !verdict_from_name(colon + 2, &output)) {
		diag_add(diags, DIAG_ERROR, g->path, lineno, (int)(colon - text) + 3,
			 "unknown verdict '%s'", colon + 2);
		return false;
	}
	g->runs = xreallocarray(g->runs, g->nruns + 1, sizeof *g->runs);
	g->runs[g->nruns++] = (struct golden_run){
		.label = xstrndup(text, (size_t)(colon - text)),
		.output = xstrdup(colon + 2),
		.line = lineno,
	};
	return true;
}

/* A golden from the text of the file at `path`, which it leaves as it is; NULL after
 * reporting its errors. */
struct golden *golden_parse(const char *path, const char *contents, struct diag_list *diags)
{
	char *text = xstrdup(contents);
	struct golden *g = xcalloc(1, sizeof *g);
	g->path = xstrdup(path);
	bool ok = true;
	int lineno = 1;
	for (char *line = text; line && *line; lineno++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		size_t n = strlen(line);
		while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\r'))
			line[--n] = '\0';
		ok &= parse_line(g, line, lineno, diags);
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	if (!ok) {
		golden_free(g);
		return NULL;
	}
	return g;
}

struct golden *golden_load(const char *path, struct diag_list *diags)
{
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL)
		return NULL;
	struct golden *g = golden_parse(path, text, diags);
	free(text);
	return g;
}

void golden_free(struct golden *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->nruns; i++) {
		for (size_t f = 0; f < g->runs[i].nfindings; f++)
			free(g->runs[i].findings[f]);
		free(g->runs[i].findings);
		free(g->runs[i].label);
		free(g->runs[i].output);
	}
	free(g->runs);
	free(g->devices_text);
	free(g->path);
	free(g);
}

char *golden_label(const struct result *r)
{
	char text[SHAPE_RUN_TEXT_MAX];
	if (r->n.dims > 0)
		return xasprintf("%s %s", r->target, shape_run_text(&r->n, &r->l, " ", text));
	return xasprintf("%s build", r->target);
}

/* Adds a target to a "\nNAME\n" list once. */
static void list_target(struct strbuf *list, const char *target)
{
	if (list->data == NULL)
		strbuf_puts(list, "\n");
	char *entry = xasprintf("\n%s\n", target);
	if (strstr(list->data, entry) == NULL)
		strbuf_printf(list, "%s\n", target);
	free(entry);
}

/* Whether the target a block label starts with is in a "\nNAME\n" list. */
static bool label_listed(const struct strbuf *list, const char *label)
{
	if (list->data == NULL)
		return false;
	char *entry = xasprintf("\n%.*s\n", (int)strcspn(label, " "), label);
	bool listed = strstr(list->data, entry) != NULL;
	free(entry);
	return listed;
}

/* The normalised lines of a result's findings. */
static char **finding_lines(const struct result *r)
{
	char **lines = xcalloc(r->findings.count + 1, sizeof *lines);
	for (size_t i = 0; i < r->findings.count; i++) {
		struct strbuf sb = { 0 };
		finding_normal(&sb, &r->findings.items[i]);
		lines[i] = strbuf_take(&sb);
	}
	return lines;
}

static bool contains(char *const *lines, size_t n, const char *line)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(lines[i], line) == 0)
			return true;
	return false;
}

/* Whether r's outputs were compared, right or wrong: what `ran` stands for. */
static bool output_compared(const struct result *r)
{
	return r->output == VERDICT_PASS || r->output == VERDICT_WRONG_OUTPUT;
}

/* Whether a block's output `ran` (a run whose output varies: a racy kernel on a device)
 * takes r's. */
static bool ran_takes(const struct golden_run *run, const struct result *r)
{
	return strcmp(run->output, "ran") == 0 && output_compared(r);
}

/* The golden's block and the result's, line by line: '-' only in the golden, '+' only in
 * the result, ' ' in both. */
static void block_diff(struct strbuf *out, const struct golden_run *run, const char *label,
		       const struct result *r, char *const *lines)
{
	const char *got = verdict_name(r->output);
	if (strcmp(run->output, got) == 0 || ran_takes(run, r)) {
		strbuf_printf(out, "      %s: %s\n", label, got);
	} else {
		strbuf_printf(out, "    - %s: %s\n", label, run->output);
		strbuf_printf(out, "    + %s: %s\n", label, got);
	}
	for (size_t i = 0; i < run->nfindings; i++)
		strbuf_printf(out, "    %c   %s\n",
			      contains(lines, r->findings.count, run->findings[i]) ? ' ' : '-',
			      run->findings[i]);
	for (size_t i = 0; i < r->findings.count; i++)
		if (!contains(run->findings, run->nfindings, lines[i]))
			strbuf_printf(out, "    +   %s\n", lines[i]);
}

static void unmet(struct result *r, const char *path, int line, const char *what,
		  const struct strbuf *diff)
{
	struct strbuf out = { 0 };
	diag_render(&out, path, line, 0, DIAG_ERROR, what, false);
	if (diff && diff->len)
		strbuf_append(&out, diff->data, diff->len);
	r->expect = EXPECT_UNMET;
	free(r->expect_diff);
	r->expect_diff = strbuf_take(&out);
}

/* The first four words of a normalised finding: severity, kind, what and space. */
static bool same_family(const char *a, const char *b)
{
	for (int words = 0; *a && *a == *b; a++, b++)
		if (*a == ' ' && ++words == 4)
			return true;
	return (*a == '\0' || *a == ' ') && (*b == '\0' || *b == ' ');
}

/* For a target whose runs vary (a device's order of work-items): whether a run shows every
 * finding its block lists, and nothing of another family than theirs. Which pairs of lines
 * of one bug a run meets depends on the order its work-groups ran in; a new kind of
 * finding, or any on a kernel the block calls clean, is a difference. */
static bool findings_cover(const struct golden_run *run, char *const *lines, size_t nlines)
{
	for (size_t i = 0; i < run->nfindings; i++)
		if (!contains(lines, nlines, run->findings[i]))
			return false;
	for (size_t i = 0; i < nlines; i++) {
		bool family = false;
		for (size_t j = 0; j < run->nfindings && !family; j++)
			family = same_family(lines[i], run->findings[j]);
		if (!family)
			return false;
	}
	return true;
}

/* A finding target's run: its block must say this output verdict and these findings,
 * exactly where the target's runs repeat (the simulator), else as findings_cover says. */
static void judge_simulated(struct golden *g, struct result *r)
{
	char *label = golden_label(r);
	struct golden_run *run = NULL;
	for (size_t i = 0; i < g->nruns && !run; i++)
		if (strcmp(g->runs[i].label, label) == 0)
			run = &g->runs[i];
	if (run == NULL) {
		char *what = xasprintf("the golden has no run '%s': if the case's sim_sizes or "
				       "sim_local changed, `clharness run --bless` rewrites it",
				       label);
		unmet(r, g->path, 0, what, NULL);
		free(what);
		free(label);
		return;
	}
	run->seen = true;
	char **lines = finding_lines(r);
	bool same = ran_takes(run, r) || strcmp(run->output, verdict_name(r->output)) == 0;
	if (r->outputs_repeat) {
		same = same && run->nfindings == r->findings.count;
		for (size_t i = 0; same && i < run->nfindings; i++)
			same = strcmp(run->findings[i], lines[i]) == 0;
	} else {
		same = same && findings_cover(run, lines, r->findings.count);
	}
	if (same) {
		r->expect = EXPECT_MET;
	} else {
		struct strbuf diff = { 0 };
		block_diff(&diff, run, label, r, lines);
		char *what = xasprintf("%s differs from its golden ('-' golden, '+' this run); "
				       "`clharness run --bless` rewrites goldens for review",
				       label);
		unmet(r, g->path, run->line, what, &diff);
		free(what);
		strbuf_free(&diff);
	}
	for (size_t i = 0; i < r->findings.count; i++)
		free(lines[i]);
	free(lines);
	free(label);
}

void golden_judge(struct golden *g, struct result *r)
{
	if (r->simulated) {
		judge_simulated(g, r);
		return;
	}
	if (g->devices == 0)
		return;
	if (r->verdict == VERDICT_SKIP || (g->devices & VERDICT_BIT(r->verdict))) {
		r->expect = EXPECT_MET;
		return;
	}
	char *what = xasprintf("the golden says devices: %s, but %s gave %s", g->devices_text,
			       r->target, verdict_name(r->verdict));
	unmet(r, g->path, 0, what, NULL);
	free(what);
}

const struct golden_run *golden_unseen(const struct golden *g)
{
	for (size_t i = 0; i < g->nruns; i++)
		if (!g->runs[i].seen)
			return &g->runs[i];
	return NULL;
}

void golden_writer_add(struct golden_writer *w, const struct result *r)
{
	if (!r->simulated)
		return;
	w->always_wrong = (w->always_wrong || !w->simulated) && r->output == VERDICT_WRONG_OUTPUT;
	w->simulated = true;
	list_target(&w->targets, r->target);
	w->buggy |= finding_list_has_errors(&r->findings);
	char *label = golden_label(r);
	if (result_cut_short(r) && w->cut_short == NULL)
		w->cut_short = xstrdup(label);
	/* Where outputs vary from run to run, a run that found errors only ran: its output
	 * may be right or wrong the next time. */
	bool varies =
		!r->outputs_repeat && finding_list_has_errors(&r->findings) && output_compared(r);
	strbuf_printf(&w->runs, "%s: %s\n", label, varies ? "ran" : verdict_name(r->output));
	char **lines = finding_lines(r);
	for (size_t f = 0; f < r->findings.count; f++) {
		strbuf_printf(&w->runs, "  %s\n", lines[f]);
		free(lines[f]);
	}
	free(lines);
	free(label);
}

/* Blocks (a label line and its indented findings) of the simulator's target first, then
 * those of instrumented devices (NAME+BACKEND), each in the order given: a golden reads
 * the same whichever targets a bless ran. Caller frees. */
static char *simulator_first(const char *blocks)
{
	struct strbuf out = { 0 };
	for (int pass = 0; pass < 2; pass++) {
		bool take = false;
		for (const char *line = blocks; *line;) {
			const char *end = strchr(line, '\n');
			size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
			if (*line != ' ') {
				size_t label = strcspn(line, " :");
				bool instrumented = memchr(line, '+', label) != NULL;
				take = instrumented == (pass == 1);
			}
			if (take)
				strbuf_append(&out, line, len);
			line += len;
		}
	}
	char *s = strbuf_take(&out);
	return s ? s : xstrdup("");
}

/* Whether a devices line says more than a simulator's run can tell. */
static bool devices_hand_written(unsigned devices)
{
	unsigned derivable = VERDICT_BIT(VERDICT_PASS) | VERDICT_BIT(VERDICT_WRONG_OUTPUT);
	return (devices & ~derivable) != 0;
}

char *golden_writer_text(const struct golden_writer *w, const char *case_name, bool racy,
			 const struct golden *previous)
{
	const char *devices = racy		? "ran"
			      : w->always_wrong ? "wrong-output"
			      : w->buggy	? "ran"
						: "pass";
	if (previous && devices_hand_written(previous->devices))
		devices = previous->devices_text;
	/* The blocks of targets this bless did not run stay as they were. */
	struct strbuf kept = { 0 };
	for (size_t i = 0; previous && i < previous->nruns; i++) {
		const struct golden_run *run = &previous->runs[i];
		if (label_listed(&w->targets, run->label))
			continue;
		strbuf_printf(&kept, "%s: %s\n", run->label, run->output);
		for (size_t f = 0; f < run->nfindings; f++)
			strbuf_printf(&kept, "  %s\n", run->findings[f]);
	}
	struct strbuf blocks = { 0 };
	strbuf_puts(&blocks, w->runs.data ? w->runs.data : "");
	strbuf_puts(&blocks, kept.data ? kept.data : "");
	char *ordered = simulator_first(blocks.data ? blocks.data : "");
	char *text = xasprintf("# What clharness must report for %s, written by `clharness run "
			       "--bless`:\n# review the diff before committing it.\n"
			       "devices: %s\n%s",
			       case_name, devices, ordered);
	free(ordered);
	strbuf_free(&blocks);
	strbuf_free(&kept);
	return text;
}

void golden_writer_free(struct golden_writer *w)
{
	strbuf_free(&w->runs);
	strbuf_free(&w->targets);
	free(w->cut_short);
	*w = (struct golden_writer){ 0 };
}

void golden_book_open(struct golden_book *book, struct test_case *const *cases, size_t ncases,
		      bool bless, bool in_force,
		      void (*broken)(void *ctx, const char *path, const struct diag_list *diags),
		      void *ctx)
{
	size_t n = ncases ? ncases : 1;
	*book = (struct golden_book){ .cases = cases,
				      .ncases = ncases,
				      .bless = bless,
				      .goldens = xcalloc(n, sizeof *book->goldens),
				      .targets = xcalloc(n, sizeof *book->targets),
				      .writers = xcalloc(n, sizeof *book->writers) };
	if (bless || !in_force)
		return;
	for (size_t c = 0; c < ncases; c++) {
		char *path = golden_path_for(cases[c]->path);
		if (path == NULL)
			continue;
		struct diag_list diags = { 0 };
		book->goldens[c] = golden_load(path, &diags);
		if (diags.count > 0)
			broken(ctx, path, &diags);
		diag_list_free(&diags);
		free(path);
	}
}

static size_t case_of(const struct golden_book *book, const struct result *r)
{
	for (size_t c = 0; c < book->ncases; c++)
		if (strcmp(book->cases[c]->path, r->case_path) == 0)
			return c;
	return book->ncases;
}

void golden_book_take(struct golden_book *book, struct result *r)
{
	size_t c = case_of(book, r);
	if (c == book->ncases)
		return;
	if (r->simulated)
		list_target(&book->targets[c], r->target);
	if (book->bless)
		golden_writer_add(&book->writers[c], r);
	else if (book->goldens[c])
		golden_judge(book->goldens[c], r);
}

void golden_book_unseen(const struct golden_book *book, void (*emit)(void *ctx, struct result *r),
			void *ctx)
{
	for (size_t c = 0; c < book->ncases; c++) {
		const struct golden *g = book->goldens[c];
		if (g == NULL)
			continue;
		for (size_t i = 0; i < g->nruns; i++) {
			const struct golden_run *run = &g->runs[i];
			/* A block of a target this run left out is no run that went missing. */
			if (run->seen || !label_listed(&book->targets[c], run->label))
				continue;
			struct result r = {
				.case_name = xstrdup(book->cases[c]->name),
				.case_path = xstrdup(book->cases[c]->path),
				.target = xstrndup(run->label, strcspn(run->label, " ")),
				.backend = xstrndup(run->label, strcspn(run->label, " ")),
				.simulated = true,
				.verdict = VERDICT_CASE_ERROR,
				.output = VERDICT_CASE_ERROR,
			};
			char *what = xasprintf("the golden lists '%s', which did not run: if the "
					       "case's sim_sizes or sim_local changed, `clharness "
					       "run --bless` rewrites it",
					       run->label);
			result_set_diag(&r, VERDICT_CASE_ERROR, g->path, run->line, 1, "%s", what);
			unmet(&r, g->path, run->line, what, NULL);
			free(what);
			emit(ctx, &r);
			result_free(&r);
		}
	}
}

/* Creates the folders above `path`. */
static void make_parents(const char *path)
{
	char *dir = xstrdup(path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0777);
		*p = '/';
	}
	free(dir);
}

size_t golden_book_write(const struct golden_book *book, FILE *notes)
{
	size_t failed = 0;
	for (size_t c = 0; c < book->ncases; c++) {
		const struct test_case *tc = book->cases[c];
		if (!book->writers[c].simulated) {
			fprintf(notes, "clharness: %s: not blessed: no simulator ran it\n",
				tc->path);
			failed++;
			continue;
		}
		if (book->writers[c].cut_short) {
			fprintf(notes,
				"clharness: %s: not blessed: its run '%s' was cut short (Oclgrind "
				"stopped reporting), and a golden holds only what a whole run "
				"said: lower its sim_sizes\n",
				tc->path, book->writers[c].cut_short);
			failed++;
			continue;
		}
		char *path = golden_path_for(tc->path);
		if (path == NULL) {
			fprintf(notes,
				"clharness: %s: not blessed: a golden needs the case under a cases/ "
				"folder, with expected/ beside it\n",
				tc->path);
			failed++;
			continue;
		}
		size_t len;
		char *old = read_file(path, &len);
		/* A broken golden is what --bless replaces: only a well-formed one has a
		 * devices line to keep. */
		struct diag_list ignored = { 0 };
		struct golden *previous = old ? golden_parse(path, old, &ignored) : NULL;
		diag_list_free(&ignored);
		char *text = golden_writer_text(&book->writers[c], tc->name, tc->racy, previous);
		golden_free(previous);
		if (old == NULL || strcmp(old, text) != 0) {
			make_parents(path);
			FILE *f = fopen(path, "w");
			if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
				fprintf(notes, "clharness: cannot write %s: %s\n", path,
					strerror(errno));
				failed++;
			} else {
				fprintf(notes, "clharness: %s %s\n", old ? "rewrote" : "wrote",
					path);
			}
		}
		free(old);
		free(text);
		free(path);
	}
	return failed;
}

void golden_book_close(struct golden_book *book)
{
	for (size_t c = 0; c < book->ncases; c++) {
		golden_free(book->goldens[c]);
		golden_writer_free(&book->writers[c]);
		strbuf_free(&book->targets[c]);
	}
	free(book->goldens);
	free(book->targets);
	free(book->writers);
	*book = (struct golden_book){ 0 };
}
