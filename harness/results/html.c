/* html.c - the report as one self-contained page (html.h). */
#include "config.h"

#include "results/html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "findings/advice.h"
#include "results/report.h"

/* Lines shown above and below the line a finding is at. */
#define CONTEXT_LINES 3

static const char style[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:80rem;padding:1rem 2rem;"
	"color:#1d2330;background:#fff}"
	"h1{font-size:1.6rem;margin:.2rem 0}h2{border-bottom:1px solid #ccd;padding-bottom:.2rem;"
	"margin-top:2rem}h3{font-size:1.05rem;margin:.2rem 0 .5rem}"
	"code,pre{font:13px/1.4 ui-monospace,monospace}"
	".meta{color:#556}.counts{display:flex;gap:1rem;flex-wrap:wrap;padding:0;list-style:none}"
	".counts li{border:1px solid #ccd;border-radius:6px;padding:.4rem .8rem}"
	".counts b{font-size:1.3rem;display:block}"
	".bad b{color:#b00020}.warn b{color:#8a5a00}.good b{color:#11703a}"
	".incomplete{background:#fff3cd;border:1px solid #d9a400;border-radius:6px;padding:.6rem 1rem}"
	"article{border:1px solid #ccd;border-left:6px solid #8a5a00;border-radius:6px;"
	"padding:.6rem 1rem;margin:1rem 0}"
	"article.error{border-left-color:#b00020}article.note{border-left-color:#557}"
	".level{text-transform:uppercase;font-size:.75rem;font-weight:700;letter-spacing:.05em;"
	"padding:.1rem .4rem;border-radius:4px;color:#fff;background:#8a5a00}"
	".error .level{background:#b00020}.note .level{background:#557}"
	".message{white-space:pre-wrap;margin:.3rem 0}"
	".sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(24rem,1fr));gap:1rem}"
	"figure{margin:0}figcaption{font-size:.85rem;color:#556;margin-bottom:.2rem}"
	"pre.src{background:#f6f7f9;border:1px solid #dde;border-radius:4px;padding:.4rem 0;"
	"overflow-x:auto;tab-size:4;margin:0}"
	"pre.src>span{display:block;padding:0 .6rem;white-space:pre}"
	"pre.src .hit{background:#ffe3e3}pre.src .caret{color:#b00020;font-weight:700}"
	".ln{color:#889;display:inline-block;min-width:3ch;text-align:right;margin-right:1ch}"
	"dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.6rem 0}"
	"dt{color:#556}dd{margin:0}"
	".fix{background:#e9f6ee;border-radius:4px;padding:.4rem .8rem}"
	"table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .6rem;"
	"border-bottom:1px solid #e3e5ea;vertical-align:top}td.v,td.t{white-space:nowrap}"
	"tr.failed td.v{color:#b00020;font-weight:700}tr.expected td.v{color:#8a5a00}"
	"tr.pass td.v{color:#11703a}";

/* The lines of a source file, read once a page. */
struct source {
	char *path;
	char *text;  /* NULL: the file could not be read */
	char **line; /* into text, each cut at its newline */
	int nlines;
};

struct sources {
	struct source *files;
	size_t count;
};

static const struct source *source_of(struct sources *cache, const char *path)
{
	for (size_t i = 0; i < cache->count; i++)
		if (strcmp(cache->files[i].path, path) == 0)
			return &cache->files[i];
	cache->files = xreallocarray(cache->files, cache->count + 1, sizeof *cache->files);
	struct source *s = &cache->files[cache->count++];
	*s = (struct source){ .path = xstrdup(path) };
	size_t len = 0;
	s->text = read_file(path, &len);
	for (char *p = s->text; p && p < s->text + len;) {
		char *nl = memchr(p, '\n', (size_t)(s->text + len - p));
		s->line = xreallocarray(s->line, (size_t)s->nlines + 1, sizeof *s->line);
		s->line[s->nlines++] = p;
		if (nl == NULL)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return s;
}

static void sources_free(struct sources *cache)
{
	for (size_t i = 0; i < cache->count; i++) {
		free(cache->files[i].path);
		free(cache->files[i].text);
		free(cache->files[i].line);
	}
	free(cache->files);
}

/* The lines around `line` of `file`, that line marked and a caret under column `col`;
 * nothing when the file cannot be read or has no such line. */
static void excerpt(struct strbuf *out, struct sources *cache, const char *file, int line,
		    int col, const char *caption)
{
	const struct source *s = file && *file && line > 0 ? source_of(cache, file) : NULL;
	if (s == NULL || s->text == NULL || line > s->nlines)
		return;
	strbuf_puts(out, "<figure><figcaption>");
	xml_text(out, caption);
	strbuf_puts(out, "</figcaption><pre class=\"src\">");
	int first = line > CONTEXT_LINES ? line - CONTEXT_LINES : 1;
	int last = line + CONTEXT_LINES < s->nlines ? line + CONTEXT_LINES : s->nlines;
	for (int n = first; n <= last; n++) {
		const char *text = s->line[n - 1];
		strbuf_printf(out, "<span%s><span class=\"ln\">%d</span>",
			      n == line ? " class=\"hit\"" : "", n);
		xml_text(out, text);
		strbuf_puts(out, "</span>");
		if (n == line && col > 0) {
			/* Tabs stay tabs under the line, so the caret lines up at any tab width. */
			strbuf_puts(out, "<span class=\"caret\"><span class=\"ln\"></span>");
			for (int c = 1; c < col && text[c - 1]; c++)
				strbuf_puts(out, text[c - 1] == '\t' ? "\t" : " ");
			strbuf_puts(out, "^</span>");
		}
	}
	strbuf_puts(out, "</pre></figure>");
}

static void place(struct strbuf *out, const char *file, int line, int col)
{
	xml_text(out, file && *file ? file : "clharness");
	if (line > 0)
		strbuf_printf(out, ":%d", line);
	if (line > 0 && col > 0)
		strbuf_printf(out, ":%d", col);
}

static void seen_in(struct strbuf *out, const struct findlog_entry *e)
{
	if (e->nseen == 0)
		return;
	strbuf_printf(out, "<dt>seen in</dt><dd>");
	for (size_t k = 0; k < e->nseen; k++) {
		if (k)
			strbuf_puts(out, "<br>");
		xml_text(out, e->seen[k]);
	}
	strbuf_puts(out, "</dd>");
}

/* A failed run's entry: each run that failed so and what it said there, the outputs that
 * differ for a wrong output. */
static void said_table(struct strbuf *out, const struct findlog_entry *e)
{
	if (e->nseen == 0)
		return;
	strbuf_printf(out, "<table class=\"said\"><thead><tr><th>run</th><th>%s</th></tr></thead>"
			   "<tbody>",
		      findlog_rules[e->rule].id && strcmp(findlog_rules[e->rule].id, "wrong-output") == 0
			      ? "the outputs that differ"
			      : "what it said");
	for (size_t k = 0; k < e->nseen; k++) {
		strbuf_puts(out, "<tr><td class=\"t\">");
		xml_text(out, e->seen[k]);
		strbuf_puts(out, "</td><td>");
		xml_text(out, e->said && e->said[k] ? e->said[k] : "");
		strbuf_puts(out, "</td></tr>");
	}
	strbuf_puts(out, "</tbody></table>");
}

static void finding_article(struct strbuf *out, struct sources *cache,
			    const struct findlog_entry *e)
{
	const struct finding *f = &e->finding;
	struct strbuf headline = { 0 };
	finding_headline(&headline, f);
	strbuf_puts(out, "<p class=\"message\">");
	xml_text(out, headline.data);
	strbuf_puts(out, "</p><div class=\"sides\">");
	/* Each side names its access and, for a race, the work-item that made it. */
	bool pair = f->kind == FINDING_RACE && f->nexample == 2;
	struct strbuf caption = { 0 };
	strbuf_printf(&caption, "line %d", e->line);
	if (f->other.line > 0)
		strbuf_printf(&caption, ": this %s", f->kind == FINDING_DIVERGENCE
							? "barrier"
							: finding_access_word(f->at.access));
	if (pair) {
		strbuf_puts(&caption, ", by work-item ");
		finding_entity(&caption, &f->example[0]);
	}
	excerpt(out, cache, e->file, e->line, e->col, caption.data);
	strbuf_free(&caption);
	if (f->other.line > 0) {
		if (f->kind == FINDING_RACE)
			strbuf_printf(&caption, "line %d: the %s it races with", f->other.line,
				      finding_access_word(f->other.access));
		else
			strbuf_printf(&caption, "line %d: the other %s", f->other.line,
				      f->kind == FINDING_DIVERGENCE
					      ? "barrier"
					      : finding_access_word(f->other.access));
		if (pair) {
			strbuf_puts(&caption, ", by work-item ");
			finding_entity(&caption, &f->example[1]);
		}
		excerpt(out, cache, e->file, f->other.line, f->other.col, caption.data);
		strbuf_free(&caption);
	}
	strbuf_puts(out, "</div><dl>");
	if (f->nexample) {
		strbuf_puts(out, "<dt>work-items</dt><dd>");
		for (size_t i = 0; i < f->nexample; i++) {
			if (i)
				strbuf_puts(out, "<br>");
			struct strbuf w = { 0 };
			finding_entity(&w, &f->example[i]);
			xml_text(out, w.data);
			strbuf_free(&w);
		}
		strbuf_puts(out, "</dd>");
	}
	if (f->space) {
		strbuf_puts(out, "<dt>memory</dt><dd>");
		xml_text(out, f->space);
		strbuf_puts(out, "</dd>");
	}
	if (f->kernel) {
		strbuf_puts(out, "<dt>kernel</dt><dd>");
		xml_text(out, f->kernel);
		strbuf_puts(out, "</dd>");
	}
	strbuf_printf(out, "<dt>times</dt><dd>%lu</dd>", f->count);
	if (f->input_set) {
		strbuf_puts(out, "<dt>input sets</dt><dd>");
		xml_text(out, f->input_set);
		strbuf_puts(out, "</dd>");
	}
	if (f->suppressed)
		strbuf_puts(out, "<dt>suppressed</dt><dd>a suppression says it is meant to be "
				 "there</dd>");
	seen_in(out, e);
	strbuf_puts(out, "</dl>");
	struct advice a = { 0 };
	if (f->severity != DIAG_NOTE && e->file && advice_for_file(f, e->file, &a)) {
		const char *fix = strncmp(a.text, "fix: ", 5) == 0 ? a.text + 5 : a.text;
		strbuf_puts(out, "<p class=\"fix\"><b>Fix</b>");
		if (a.line > 0)
			strbuf_printf(out, " (line %d)", a.line);
		strbuf_puts(out, ": ");
		xml_text(out, fix);
		strbuf_puts(out, "</p>");
		if (a.line > 0 && a.line != e->line && a.line != f->other.line) {
			char *where = xasprintf("line %d: where the fix goes", a.line);
			strbuf_puts(out, "<div class=\"sides\">");
			excerpt(out, cache, e->file, a.line, a.col, where);
			strbuf_puts(out, "</div>");
			free(where);
		}
		advice_free(&a);
	}
	strbuf_free(&headline);
}

static void entry_article(struct strbuf *out, struct sources *cache, const struct findlog_entry *e,
			  size_t number)
{
	const struct findlog_rule *rule = &findlog_rules[e->rule];
	strbuf_printf(out, "<article class=\"%s\" id=\"finding-%zu\" data-rule=\"%s\"><h3>"
			   "<span class=\"level\">%s</span> ",
		      diag_severity_name(e->severity), number, rule->id, diag_severity_name(e->severity));
	xml_text(out, rule->short_text);
	strbuf_puts(out, " <span class=\"meta\">at ");
	place(out, e->file, e->line, e->col);
	strbuf_puts(out, "</span></h3>");
	if (e->has_finding) {
		finding_article(out, cache, e);
	} else {
		strbuf_puts(out, "<p class=\"message\">");
		xml_text(out, e->message);
		strbuf_puts(out, "</p><div class=\"sides\">");
		char *caption = xasprintf("line %d", e->line);
		excerpt(out, cache, e->file, e->line, e->col, caption);
		free(caption);
		if (e->other_line > 0) {
			/* The note's headline ("the conflicting read") names the other line. */
			const char *colon = strstr(e->other_note, ": ");
			size_t n = colon ? (size_t)(colon - e->other_note) : strlen(e->other_note);
			caption = xasprintf("line %d: %.*s", e->other_line, (int)n, e->other_note);
			excerpt(out, cache, e->file, e->other_line, e->other_col, caption);
			free(caption);
		}
		strbuf_puts(out, "</div>");
		said_table(out, e);
	}
	strbuf_puts(out, "<details><summary>About this rule</summary><p>");
	xml_text(out, rule->full_text);
	strbuf_puts(out, " ");
	xml_text(out, rule->help);
	strbuf_puts(out, "</p></details></article>\n");
}

/* pass, expected (a known bug its case records), skipped or failed. */
static const char *run_class(const struct findlog_run *r)
{
	if (!r->expected)
		return "failed";
	if (r->verdict == VERDICT_SKIP)
		return "skipped";
	return r->verdict == VERDICT_PASS ? "pass" : "expected";
}

/* One count of the summary, "1 error" or "2 errors": `one` and `many` its word. */
static void count_item(struct strbuf *out, const char *class, size_t n, const char *one,
		       const char *many)
{
	strbuf_printf(out, "<li class=\"%s\"><b>%zu</b>%s</li>", n ? class : "", n,
		      n == 1 ? one : many);
}

static void summary(struct strbuf *out, const struct findlog *log)
{
	size_t pass = 0, expected = 0, skipped = 0, failed = 0, errors = 0, warnings = 0;
	for (size_t i = 0; i < log->nruns; i++) {
		const char *c = run_class(&log->runs[i]);
		pass += strcmp(c, "pass") == 0;
		expected += strcmp(c, "expected") == 0;
		skipped += strcmp(c, "skipped") == 0;
		failed += strcmp(c, "failed") == 0;
	}
	for (size_t i = 0; i < log->count; i++) {
		errors += log->entries[i].severity == DIAG_ERROR;
		warnings += log->entries[i].severity == DIAG_WARNING;
	}
	strbuf_puts(out, "<section id=\"summary\"><h2>Summary</h2>");
	if (log->incomplete) {
		strbuf_puts(out, "<p class=\"incomplete\"><b>Not everything asked for was checked:"
				 "</b> ");
		xml_text(out, log->incomplete);
		strbuf_puts(out, ". No finding below is no evidence that there is none.</p>");
	}
	if (log->nchosen) {
		strbuf_puts(out, "<p><b>Values the harness chose</b>, where nothing was given; "
				 "every finding below rests on them too:</p><ul>");
		for (size_t i = 0; i < log->nchosen; i++) {
			strbuf_puts(out, "<li>");
			xml_text(out, log->chosen[i]);
			strbuf_puts(out, "</li>");
		}
		strbuf_puts(out, "</ul>");
	}
	strbuf_puts(out, "<ul class=\"counts\">");
	count_item(out, "bad", errors, "error", "errors");
	count_item(out, "warn", warnings, "warning", "warnings");
	if (log->nruns) {
		count_item(out, "good", log->nruns, "run", "runs");
		count_item(out, "good", pass, "passed", "passed");
		count_item(out, "warn", expected, "expected bug", "expected bugs");
		count_item(out, "warn", skipped, "skipped", "skipped");
		count_item(out, "bad", failed, "failed", "failed");
	}
	strbuf_puts(out, "</ul></section>\n");
}

static void runs_table(struct strbuf *out, const struct findlog *log)
{
	if (log->nruns == 0)
		return;
	strbuf_puts(out, "<section id=\"runs\"><h2>Runs</h2><table><thead><tr><th>verdict</th>"
			 "<th>run</th><th>time</th><th>what it says</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < log->nruns; i++) {
		const struct findlog_run *r = &log->runs[i];
		const char *c = run_class(r);
		strbuf_printf(out, "<tr class=\"%s\"><td class=\"v\">%s%s</td><td>", c,
			      verdict_name(r->verdict),
			      strcmp(c, "expected") == 0 ? " (expected)" : "");
		xml_text(out, r->label);
		strbuf_printf(out, "</td><td class=\"t\">%.3f ms</td><td>", r->ms);
		xml_text(out, r->message);
		strbuf_puts(out, "</td></tr>\n");
	}
	strbuf_puts(out, "</tbody></table></section>\n");
}

void html_page_begin(struct strbuf *out, const char *title, const char *heading,
		     const char *where)
{
	strbuf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
			 "<title>");
	xml_text(out, title);
	strbuf_printf(out, "</title><style>%s</style></head>\n<body><header><h1>", style);
	xml_text(out, heading);
	char when[64] = "";
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
	strbuf_printf(out, "</h1><p class=\"meta\">clharness %s, %s", PACKAGE_VERSION, when);
	if (where) {
		strbuf_puts(out, ", in <code>");
		xml_text(out, where);
		strbuf_puts(out, "</code>");
	}
	strbuf_puts(out, "</p></header>\n");
}

void html_page_end(struct strbuf *out)
{
	strbuf_puts(out, "</body></html>\n");
}

void html_findings(struct strbuf *out, const struct findlog *log)
{
	summary(out, log);
	strbuf_puts(out, "<section id=\"findings\"><h2>Findings</h2>\n");
	if (log->count == 0)
		strbuf_puts(out, log->incomplete ? "<p>None in what was checked.</p>\n"
						 : "<p>None.</p>\n");
	struct findlog_entry *sorted = findlog_sorted(log);
	struct sources cache = { 0 };
	for (size_t i = 0; i < log->count; i++)
		entry_article(out, &cache, &sorted[i], i + 1);
	sources_free(&cache);
	free(sorted);
	strbuf_puts(out, "</section>\n");
	runs_table(out, log);
}

void html_text(const struct findlog *log, struct strbuf *out)
{
	size_t errors = 0;
	for (size_t i = 0; i < log->count; i++)
		errors += log->entries[i].severity == DIAG_ERROR;
	char *title = xasprintf("clharness %s: %zu error%s%s", log->command, errors,
				errors == 1 ? "" : "s",
				log->incomplete ? ", not everything checked" : "");
	char *heading = xasprintf("clharness %s", log->command);
	html_page_begin(out, title, heading, log->root);
	html_findings(out, log);
	html_page_end(out);
	free(title);
	free(heading);
}

int html_prepare(const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return -1;
	if (!is_dir(dir)) {
		errno = ENOTDIR;
		return -1;
	}
	return access(dir, W_OK | X_OK);
}

int html_write_page(const char *dir, const char *name, const char *page)
{
	return html_prepare(dir) == 0 ? write_text_file(dir, name, page) : -1;
}

int html_write(const struct findlog *log, const char *dir)
{
	struct strbuf page = { 0 };
	html_text(log, &page);
	int status = html_write_page(dir, "index.html", page.data);
	int saved = errno;
	strbuf_free(&page);
	errno = saved;
	return status;
}
