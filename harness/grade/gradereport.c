/* gradereport.c - students' reports and the class table. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/annotate.h"
#include "grade/gradereport.h"
#include "results/html.h"
#include "results/report.h"

/* Points as reports print them: no decimals for whole points. */
static void points_text(struct strbuf *out, double points)
{
	if (points == (double)(long long)points)
		strbuf_printf(out, "%lld", (long long)points);
	else
		strbuf_printf(out, "%.2f", points);
}

/* What a check's line says: its summary, or only pass or fail when it is hidden. */
static const char *check_outcome(const struct grade_check *c, const struct check_grade *cg)
{
	if (!c->hidden)
		return cg->summary ? cg->summary : "";
	return check_grade_passed(c, cg) ? "passed (hidden check)" : "failed (hidden check)";
}

/* Why no check ran: a build error at its line, any other blocker in its own words, then
 * the build log. */
static void blocker_text(struct strbuf *out, const struct student_grade *g, bool colour)
{
	if (g->blocker_diags.count > 0)
		diag_list_render(out, &g->blocker_diags, colour);
	else
		diag_render(out, g->submission ? g->submission : g->student, 0, 0, DIAG_ERROR,
			    g->blocker, colour);
	if (g->blocker_log) {
		strbuf_puts(out, "the build log:\n");
		for (const char *p = g->blocker_log; *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			strbuf_printf(out, "    %.*s\n", (int)len, p);
			p += len + (nl != NULL);
		}
	}
}

/* Whether the student's report hides anything: the total, with the hidden checks' points
 * in it, would give away what a hidden check earned. */
static bool any_hidden(const struct assignment *a)
{
	for (size_t i = 0; i < a->nchecks; i++)
		if (a->checks[i].hidden)
			return true;
	return false;
}

/* The points of the visible checks, earned and at most. */
static void visible_points(const struct assignment *a, const struct student_grade *g,
			   double *earned, double *most)
{
	*earned = *most = 0;
	for (size_t i = 0; i < a->nchecks && i < g->nchecks; i++)
		if (!a->checks[i].hidden) {
			*earned += g->checks[i].points;
			*most += a->checks[i].points;
		}
}

void grade_report_text(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g, enum grade_view view, bool colour)
{
	bool student = view == GRADE_FOR_STUDENT;
	strbuf_printf(out, "%s: %s (%s)%s\n", a->name, g->student,
		      g->submission ? g->submission : "no submission",
		      student ? "" : ", the instructor's report: hidden checks in full");
	size_t width = 7;
	for (size_t i = 0; i < a->nchecks; i++)
		if (strlen(a->checks[i].name) > width)
			width = strlen(a->checks[i].name);
	size_t hidden = 0, hidden_passed = 0;
	for (size_t i = 0; i < a->nchecks; i++) {
		const struct grade_check *c = &a->checks[i];
		const struct check_grade *cg = &g->checks[i];
		struct strbuf pts = { 0 };
		if (student && c->hidden) {
			hidden++;
			hidden_passed += !g->blocker && check_grade_passed(c, cg);
			strbuf_puts(&pts, "hidden");
		} else {
			points_text(&pts, cg->points);
			strbuf_puts(&pts, " / ");
			points_text(&pts, c->points);
		}
		const char *outcome = g->blocker	 ? "not run"
				      : student	 ? check_outcome(c, cg)
				      : cg->summary ? cg->summary
						    : "";
		strbuf_printf(out, "  %-*s  %11s  %s%s\n", (int)width, c->name, pts.data, outcome,
			      !student && c->hidden ? " (hidden check)" : "");
		strbuf_free(&pts);
	}
	struct strbuf total = { 0 };
	if (student && hidden > 0) {
		double earned, most;
		visible_points(a, g, &earned, &most);
		points_text(&total, earned);
		strbuf_puts(&total, " / ");
		points_text(&total, most);
		strbuf_printf(out, "  %-*s  %11s\n", (int)width, "visible", total.data);
		strbuf_printf(out,
			      "  %zu of %zu hidden check%s passed; the total, with their points, "
			      "is your course's to publish\n",
			      hidden_passed, hidden, hidden == 1 ? "" : "s");
	} else {
		points_text(&total, g->total);
		strbuf_puts(&total, " / ");
		points_text(&total, a->max_points);
		strbuf_printf(out, "  %-*s  %11s\n", (int)width, "total", total.data);
	}
	strbuf_free(&total);
	if (g->note && !g->blocker)
		strbuf_printf(out, "  note: %s\n", g->note);

	if (g->blocker) {
		strbuf_puts(out, "\n");
		blocker_text(out, g, colour);
		return;
	}
	for (size_t i = 0; i < a->nchecks; i++) {
		const struct grade_check *c = &a->checks[i];
		const struct check_grade *cg = &g->checks[i];
		if ((student && c->hidden) || cg->diags.count == 0)
			continue;
		strbuf_printf(out, "\n%s%s%s%s:\n", c->name, c->hidden ? " (hidden check)" : "",
			      c->about ? ": " : "", c->about ? c->about : "");
		diag_list_render(out, &cg->diags, colour);
	}
}

const enum verdict grade_noted_verdicts[] = { VERDICT_TIMEOUT, VERDICT_CRASH, VERDICT_INCOMPLETE };
const size_t grade_noted_count = sizeof grade_noted_verdicts / sizeof grade_noted_verdicts[0];

/* What the table says beside a student's points: why the checks could not run, or that
 * runs hung, crashed or were cut short. */
static void row_note(struct strbuf *out, const struct assignment *a,
		     const struct student_grade *g)
{
	if (g->blocker) {
		strbuf_puts(out, g->note ? g->note : verdict_name(g->blocker_verdict));
		return;
	}
	unsigned seen = g->verdicts;
	for (size_t i = 0; i < g->nchecks; i++)
		seen |= g->checks[i].verdicts;
	const char *sep = "";
	if (g->note) {
		strbuf_puts(out, g->note);
		sep = " and ";
	}
	for (size_t k = 0; k < grade_noted_count; k++) {
		enum verdict v = grade_noted_verdicts[k];
		if (!(seen & (1u << v)))
			continue;
		strbuf_printf(out, "%s%s", sep, verdict_name(v));
		sep = " and ";
		/* Which check hung or crashed first, at which launch. */
		for (size_t i = 0; a && i < g->nchecks && i < a->nchecks; i++)
			if (g->checks[i].stopped == v && g->checks[i].stopped_at) {
				strbuf_printf(out, " in %s at %s", a->checks[i].name,
					      g->checks[i].stopped_at);
				break;
			}
	}
}

static void json_diags(struct strbuf *out, const struct diag_list *list)
{
	strbuf_puts(out, "[");
	for (size_t d = 0; d < list->count; d++) {
		const struct diag *x = &list->items[d];
		strbuf_puts(out, d ? ",{\"file\":" : "{\"file\":");
		json_string(out, x->file);
		strbuf_printf(out,
			      ",\"line\":%d,\"col\":%d,\"severity\":\"%s\",\"message\":", x->line,
			      x->col, diag_severity_name(x->severity));
		json_string(out, x->message);
		if (x->code)
			strbuf_printf(out, ",\"code\":\"%s\"", x->code);
		strbuf_puts(out, "}");
	}
	strbuf_puts(out, "]");
}

void grade_report_json(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g)
{
	strbuf_puts(out, "{\"assignment\":");
	json_string(out, a->name);
	strbuf_puts(out, ",\"student\":");
	json_string(out, g->student);
	strbuf_puts(out, ",\"submission\":");
	if (g->submission)
		json_string(out, g->submission);
	else
		strbuf_puts(out, "null");
	strbuf_printf(out, ",\"total\":%.2f,\"max\":%.2f,\"note\":", g->total, a->max_points);
	struct strbuf note = { 0 };
	row_note(&note, a, g);
	json_string(out, note.data ? note.data : "");
	strbuf_free(&note);
	/* The grader's own words, apart from the verdicts the note adds, for the read-back. */
	if (g->note) {
		strbuf_puts(out, ",\"own_note\":");
		json_string(out, g->note);
	}
	if (g->source_hash)
		strbuf_printf(out, ",\"source\":\"%016llx\"", (unsigned long long)g->source_hash);
	strbuf_puts(out, ",\"blocker\":");
	if (g->blocker) {
		strbuf_printf(out,
			      "{\"verdict\":\"%s\",\"message\":", verdict_name(g->blocker_verdict));
		json_string(out, g->blocker);
		strbuf_puts(out, ",\"diagnostics\":");
		json_diags(out, &g->blocker_diags);
		strbuf_puts(out, ",\"log\":");
		if (g->blocker_log)
			json_string(out, g->blocker_log);
		else
			strbuf_puts(out, "null");
		strbuf_puts(out, "}");
	} else {
		strbuf_puts(out, "null");
	}
	strbuf_puts(out, ",\"checks\":[");
	for (size_t i = 0; i < a->nchecks; i++) {
		const struct grade_check *c = &a->checks[i];
		const struct check_grade *cg = &g->checks[i];
		strbuf_puts(out, i ? ",{\"name\":" : "{\"name\":");
		json_string(out, c->name);
		strbuf_printf(out,
			      ",\"kind\":\"%s\",\"hidden\":%s,\"points\":%.2f,\"max\":%.2f,"
			      "\"passed\":%s",
			      grade_kind_name(c->kind), c->hidden ? "true" : "false", cg->points,
			      c->points, check_grade_passed(c, cg) ? "true" : "false");
		strbuf_printf(out, ",\"runs\":%zu,\"runs_passed\":%zu", cg->runs, cg->passed);
		if (c->kind == GRADE_SPEED)
			strbuf_printf(out, ",\"speed\":%.4f", cg->speed);
		if (cg->stopped_at)
			strbuf_printf(out, ",\"stopped\":\"%s\",\"stopped_at\":\"%s\"",
				      verdict_name(cg->stopped), cg->stopped_at);
		strbuf_puts(out, ",\"summary\":");
		json_string(out, cg->summary ? cg->summary : "");
		strbuf_puts(out, ",\"diagnostics\":");
		json_diags(out, &cg->diags);
		strbuf_puts(out, "}");
	}
	strbuf_puts(out, "]}\n");
}

void grade_table_csv(struct strbuf *out, const struct assignment *a,
		     const struct student_grade *grades, size_t n)
{
	strbuf_puts(out, "student");
	for (size_t i = 0; i < a->nchecks; i++) {
		strbuf_puts(out, ",");
		csv_string(out, a->checks[i].name);
	}
	strbuf_puts(out, ",total,note\n");
	for (size_t s = 0; s < n; s++) {
		csv_string(out, grades[s].student);
		for (size_t i = 0; i < a->nchecks; i++) {
			strbuf_puts(out, ",");
			points_text(out, grades[s].checks[i].points);
		}
		strbuf_puts(out, ",");
		points_text(out, grades[s].total);
		struct strbuf note = { 0 };
		row_note(&note, a, &grades[s]);
		strbuf_puts(out, ",");
		csv_string(out, note.data ? note.data : "");
		strbuf_puts(out, "\n");
		strbuf_free(&note);
	}
}

/* A Markdown table cell: a '|' would end it. */
static void md_cell(struct strbuf *out, const char *s)
{
	for (const char *p = s; *p; p++)
		strbuf_printf(out, *p == '|' ? "\\|" : "%c", *p);
}

void grade_table_markdown(struct strbuf *out, const struct assignment *a,
			  const struct student_grade *grades, size_t n)
{
	strbuf_puts(out, "| student |");
	for (size_t i = 0; i < a->nchecks; i++) {
		strbuf_puts(out, " ");
		md_cell(out, a->checks[i].name);
		strbuf_puts(out, " (");
		points_text(out, a->checks[i].points);
		strbuf_puts(out, a->checks[i].hidden ? ", hidden) |" : ") |");
	}
	strbuf_puts(out, " total (");
	points_text(out, a->max_points);
	strbuf_puts(out, ") | note |\n|---|");
	for (size_t i = 0; i < a->nchecks; i++)
		strbuf_puts(out, "---:|");
	strbuf_puts(out, "---:|---|\n");
	for (size_t s = 0; s < n; s++) {
		strbuf_puts(out, "| ");
		md_cell(out, grades[s].student);
		strbuf_puts(out, " |");
		for (size_t i = 0; i < a->nchecks; i++) {
			strbuf_puts(out, " ");
			points_text(out, grades[s].checks[i].points);
			strbuf_puts(out, " |");
		}
		strbuf_puts(out, " ");
		points_text(out, grades[s].total);
		struct strbuf note = { 0 };
		row_note(&note, a, &grades[s]);
		strbuf_puts(out, " | ");
		md_cell(out, note.data ? note.data : "");
		strbuf_puts(out, " |\n");
		strbuf_free(&note);
	}
}

/* What one check tells the student on Gradescope or in JUnit: what it checks, its
 * outcome, and for a visible check what went wrong at the submission's lines. */
static void check_text(struct strbuf *out, const struct grade_check *c,
		       const struct check_grade *cg, const struct student_grade *g)
{
	if (c->about && !c->hidden)
		strbuf_printf(out, "%s\n", c->about);
	strbuf_printf(out, "%s\n", g->blocker ? "not run" : check_outcome(c, cg));
	if (!c->hidden && !g->blocker && cg->diags.count > 0) {
		strbuf_puts(out, "\n");
		diag_list_render(out, &cg->diags, false);
	}
}

void grade_report_gradescope(struct strbuf *out, const struct assignment *a,
			     const struct student_grade *g, double seconds)
{
	struct strbuf text = { 0 };
	strbuf_printf(&text, "%s: %s\n", a->name, g->submission ? g->submission : g->student);
	if (g->blocker) {
		strbuf_puts(&text, "\nNo check could run:\n");
		blocker_text(&text, g, false);
	}
	strbuf_printf(out, "{\"score\":%.2f,\"execution_time\":%.0f,\"output\":", g->total,
		      ceil(seconds));
	json_string(out, text.data);
	strbuf_puts(out, ",\"output_format\":\"text\",\"test_output_format\":\"text\","
			 "\"stdout_visibility\":\"hidden\",\"tests\":[");
	for (size_t i = 0; i < a->nchecks; i++) {
		const struct grade_check *c = &a->checks[i];
		const struct check_grade *cg = &g->checks[i];
		strbuf_free(&text);
		check_text(&text, c, cg, g);
		strbuf_printf(out, "%s{\"name\":", i ? "," : "");
		json_string(out, c->name);
		strbuf_printf(out,
			      ",\"number\":\"%zu\",\"score\":%.2f,\"max_score\":%.2f,"
			      "\"status\":\"%s\",\"visibility\":\"%s\",\"output\":",
			      i + 1, cg->points, c->points,
			      check_grade_passed(c, cg) ? "passed" : "failed",
			      c->hidden ? "after_published" : "visible");
		json_string(out, text.data);
		strbuf_puts(out, ",\"output_format\":\"text\"}");
	}
	strbuf_puts(out, "]}\n");
	strbuf_free(&text);
}

void grade_report_junit(struct strbuf *out, const struct assignment *a,
			const struct student_grade *grades, size_t n)
{
	size_t failures = 0;
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < a->nchecks; i++)
			failures += !check_grade_passed(&a->checks[i], &grades[s].checks[i]);
	strbuf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
	xml_text(out, a->name);
	strbuf_printf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", n * a->nchecks, failures);
	struct strbuf text = { 0 };
	for (size_t s = 0; s < n; s++) {
		const struct student_grade *g = &grades[s];
		size_t failed = 0;
		for (size_t i = 0; i < a->nchecks; i++)
			failed += !check_grade_passed(&a->checks[i], &g->checks[i]);
		strbuf_puts(out, "  <testsuite name=\"");
		xml_text(out, g->student);
		strbuf_printf(out, "\" tests=\"%zu\" failures=\"%zu\">\n", a->nchecks, failed);
		for (size_t i = 0; i < a->nchecks; i++) {
			const struct grade_check *c = &a->checks[i];
			const struct check_grade *cg = &g->checks[i];
			strbuf_puts(out, "    <testcase classname=\"");
			xml_text(out, g->student);
			strbuf_puts(out, "\" name=\"");
			xml_text(out, c->name);
			strbuf_puts(out, "\">");
			strbuf_free(&text);
			check_text(&text, c, cg, g);
			if (g->blocker)
				blocker_text(&text, g, false);
			/* A hidden check's points would say how much of it failed. */
			struct strbuf pts = { 0 };
			if (c->hidden) {
				strbuf_puts(&pts, check_outcome(c, cg));
			} else {
				points_text(&pts, cg->points);
				strbuf_puts(&pts, " of ");
				points_text(&pts, c->points);
				strbuf_puts(&pts, " points");
			}
			if (check_grade_passed(c, cg)) {
				strbuf_puts(out, "\n      <system-out>");
				xml_text(out, pts.data);
				strbuf_puts(out, "\n");
				xml_text(out, text.data);
				strbuf_puts(out, "</system-out>\n    </testcase>\n");
			} else {
				strbuf_puts(out, "\n      <failure message=\"");
				xml_text(out, pts.data);
				strbuf_puts(out, "\">");
				xml_text(out, text.data);
				strbuf_puts(out, "</failure>\n    </testcase>\n");
			}
			strbuf_free(&pts);
		}
		strbuf_puts(out, "  </testsuite>\n");
	}
	strbuf_puts(out, "</testsuites>\n");
	strbuf_free(&text);
}

void grade_student_findings(struct findlog *log, const struct assignment *a,
			    const struct student_grade *g)
{
	if (g->blocker) {
		char *seen = xasprintf("%s: every check", g->student);
		if (g->blocker_diags.count > 0) {
			findlog_add_diags(log, &g->blocker_diags, verdict_name(g->blocker_verdict),
					  seen);
		} else {
			struct diag_list one = { 0 };
			diag_add(&one, DIAG_ERROR, g->submission ? g->submission : "", 0, 0, "%s",
				 g->blocker);
			findlog_add_diags(log, &one, verdict_name(g->blocker_verdict), seen);
			diag_list_free(&one);
		}
		free(seen);
		return;
	}
	for (size_t c = 0; c < a->nchecks && c < g->nchecks; c++) {
		if (a->checks[c].hidden)
			continue;
		char *seen = xasprintf("%s: %s", g->student, a->checks[c].name);
		findlog_add_diags(log, &g->checks[c].diags, "wrong-output", seen);
		free(seen);
	}
}

void grade_report_html(struct strbuf *out, const struct assignment *a,
		       const struct student_grade *g)
{
	/* The student's page: with hidden checks, the visible points only, as in the text. */
	bool hiding = any_hidden(a);
	double earned = g->total, most = a->max_points;
	if (hiding)
		visible_points(a, g, &earned, &most);
	struct strbuf total = { 0 }, max = { 0 };
	points_text(&total, earned);
	points_text(&max, most);
	char *title = xasprintf("%s: %s, %s of %s%s", a->name, g->student, total.data, max.data,
				hiding ? " visible points" : "");
	char *heading = xasprintf("%s: %s", a->name, g->student);
	html_page_begin(out, title, heading, NULL);
	strbuf_printf(out, "<section id=\"score\"><h2>%s of %s %spoints</h2>", total.data,
		      max.data, hiding ? "visible " : "");
	if (hiding)
		strbuf_puts(out, "<p class=\"meta\">Hidden checks say only whether they passed; "
				 "the total, with their points, is your course's to publish.</p>");
	if (g->submission) {
		strbuf_puts(out, "<p class=\"meta\">graded: <code>");
		xml_text(out, g->submission);
		strbuf_puts(out, "</code></p>");
	}
	strbuf_puts(out, "<table><thead><tr><th>check</th><th>points</th><th>what it found</th>"
			 "</tr></thead><tbody>\n");
	for (size_t i = 0; i < a->nchecks && i < g->nchecks; i++) {
		const struct grade_check *c = &a->checks[i];
		const struct check_grade *cg = &g->checks[i];
		bool passed = !g->blocker && check_grade_passed(c, cg);
		strbuf_printf(out, "<tr class=\"%s\"><td>", passed ? "pass" : "failed");
		xml_text(out, c->name);
		if (c->about && !c->hidden) {
			strbuf_puts(out, "<br><span class=\"meta\">");
			xml_text(out, c->about);
			strbuf_puts(out, "</span>");
		}
		strbuf_puts(out, "</td><td class=\"v\">");
		if (c->hidden) {
			strbuf_puts(out, "hidden");
		} else {
			points_text(out, cg->points);
			strbuf_puts(out, " of ");
			points_text(out, c->points);
		}
		strbuf_puts(out, "</td><td>");
		xml_text(out, g->blocker ? "not run: the submission could not be graded"
					     : check_outcome(c, cg));
		strbuf_puts(out, "</td></tr>\n");
	}
	strbuf_puts(out, "</tbody></table></section>\n");
	struct findlog *log = findlog_new("grade", NULL);
	grade_student_findings(log, a, g);
	html_findings(out, log);
	findlog_free(log);
	if (g->blocker_log) {
		strbuf_puts(out, "<section id=\"build-log\"><h2>The build log</h2><pre class=\"src\">");
		xml_text(out, g->blocker_log);
		strbuf_puts(out, "</pre></section>\n");
	}
	html_page_end(out);
	free(title);
	free(heading);
	strbuf_free(&total);
	strbuf_free(&max);
}

void grade_table_html(struct strbuf *out, const struct assignment *a,
		      const struct student_grade *grades, size_t n)
{
	char *title = xasprintf("%s: %zu student%s graded", a->name, n, n == 1 ? "" : "s");
	html_page_begin(out, title, title, NULL);
	strbuf_puts(out, "<section id=\"class\"><table><thead><tr><th>student</th>");
	for (size_t i = 0; i < a->nchecks; i++) {
		strbuf_puts(out, "<th>");
		xml_text(out, a->checks[i].name);
		strbuf_puts(out, " (");
		points_text(out, a->checks[i].points);
		strbuf_puts(out, a->checks[i].hidden ? ", hidden)</th>" : ")</th>");
	}
	strbuf_puts(out, "<th>total (");
	points_text(out, a->max_points);
	strbuf_puts(out, ")</th><th>note</th></tr></thead><tbody>\n");
	for (size_t s = 0; s < n; s++) {
		const struct student_grade *g = &grades[s];
		strbuf_puts(out, "<tr><td><a href=\"");
		xml_text(out, g->student);
		strbuf_puts(out, ".html\">");
		xml_text(out, g->student);
		strbuf_puts(out, "</a></td>");
		for (size_t i = 0; i < a->nchecks && i < g->nchecks; i++) {
			strbuf_puts(out, "<td>");
			points_text(out, g->checks[i].points);
			strbuf_puts(out, "</td>");
		}
		strbuf_puts(out, "<td><b>");
		points_text(out, g->total);
		strbuf_puts(out, "</b></td><td>");
		struct strbuf note = { 0 };
		row_note(&note, a, g);
		xml_text(out, note.data ? note.data : "");
		strbuf_free(&note);
		strbuf_puts(out, "</td></tr>\n");
	}
	strbuf_puts(out, "</tbody></table></section>\n");
	html_page_end(out);
	free(title);
}

void grade_annotate(const struct assignment *a, const struct student_grade *g)
{
	const char *where = g->submission ? g->submission : g->student;
	if (g->blocker) {
		if (g->blocker_diags.count == 0)
			annotate_diag(where, 0, 0, DIAG_ERROR, g->blocker);
		for (size_t d = 0; d < g->blocker_diags.count; d++) {
			const struct diag *x = &g->blocker_diags.items[d];
			annotate_diag(x->file, x->line, x->col, x->severity, x->message);
		}
		return;
	}
	for (size_t i = 0; i < a->nchecks && i < g->nchecks; i++) {
		if (a->checks[i].hidden)
			continue;
		for (size_t d = 0; d < g->checks[i].diags.count; d++) {
			const struct diag *x = &g->checks[i].diags.items[d];
			annotate_diag(x->file && *x->file ? x->file : where, x->line, x->col,
				      x->severity, x->message);
		}
	}
}
