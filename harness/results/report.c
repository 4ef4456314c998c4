/* report.c - reporters: human text, TAP, JSON Lines; and the run's summary. */
#include "config.h"

#include "results/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/annotate.h"
#include "base/util.h"
#include "findings/advice.h"

void report_init(struct reporter *rp, enum report_format format, FILE *out, bool colour)
{
	*rp = (struct reporter){ .format = format,
				 .out = out,
				 .colour = colour && format == REPORT_TEXT };
}

/* A CSV field, quoted where it holds a comma, a quote or a line break (RFC 4180). A
 * field that a spreadsheet would take for a formula (a student's file named "=1+2.cl")
 * starts with a quote mark instead, which spreadsheets show as text (OWASP's advice on
 * CSV injection). */
void csv_string(struct strbuf *out, const char *s)
{
	bool formula = s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;
	if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
		strbuf_puts(out, s);
		return;
	}
	strbuf_puts(out, formula ? "\"'" : "\"");
	for (const char *p = s; *p; p++)
		strbuf_printf(out, *p == '"' ? "\"\"" : "%c", *p);
	strbuf_puts(out, "\"");
}

void json_string(struct strbuf *out, const char *s)
{
	strbuf_puts(out, "\"");
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"':
			strbuf_puts(out, "\\\"");
			break;
		case '\\':
			strbuf_puts(out, "\\\\");
			break;
		case '\n':
			strbuf_puts(out, "\\n");
			break;
		case '\t':
			strbuf_puts(out, "\\t");
			break;
		case '\r':
			strbuf_puts(out, "\\r");
			break;
		default:
			if (*p < 0x20)
				strbuf_printf(out, "\\u%04x", *p);
			else
				strbuf_append(out, (const char *)p, 1);
		}
	}
	strbuf_puts(out, "\"");
}

void xml_text(struct strbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&':
			strbuf_puts(out, "&amp;");
			break;
		case '<':
			strbuf_puts(out, "&lt;");
			break;
		case '>':
			strbuf_puts(out, "&gt;");
			break;
		case '"':
			strbuf_puts(out, "&quot;");
			break;
		default:
			/* XML 1.0 allows no control characters but tab and the line ends. */
			if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
				strbuf_printf(out, "&#xFFFD;");
			else
				strbuf_append(out, (const char *)p, 1);
		}
	}
}

/* JSON has no NaN or infinity: an unwritten (poisoned) element shows as null. */
static void json_number(struct strbuf *out, double v)
{
	if (isfinite(v))
		strbuf_printf(out, "%.17g", v);
	else
		strbuf_puts(out, "null");
}

/* {"file":..., "line":..., "col":..., "message":...}: the one shape of a diagnostic in
 * JSON, for results and for case files that did not load alike. */
static void json_diagnostic(struct strbuf *out, const char *file, int line, int col,
			    const char *message)
{
	strbuf_puts(out, "{\"file\":");
	json_string(out, file);
	strbuf_printf(out, ",\"line\":%d,\"col\":%d,\"message\":", line, col);
	json_string(out, message);
	strbuf_puts(out, "}");
}

static void json_key(struct strbuf *out, const char *key)
{
	strbuf_printf(out, "%s\"%s\":", out->len > 1 ? "," : "", key);
}

static void json_site(struct strbuf *out, const struct finding_site *s)
{
	char access[2] = { s->access, '\0' };
	strbuf_printf(out, "{\"line\":%d,\"col\":%d,\"access\":", s->line, s->col);
	if (s->access)
		json_string(out, access);
	else
		strbuf_puts(out, "null");
	strbuf_puts(out, "}");
}

static void json_triple(struct strbuf *out, const char *key, const long v[3])
{
	strbuf_printf(out, "\"%s\":[%ld,%ld,%ld]", key, v[0], v[1], v[2]);
}

/* A string field, or null. */
static void json_text_or_null(struct strbuf *out, const char *s)
{
	if (s)
		json_string(out, s);
	else
		strbuf_puts(out, "null");
}

void report_json_chosen(struct strbuf *out, const struct chosen_value *chosen, size_t count)
{
	strbuf_puts(out, "[");
	for (size_t i = 0; i < count; i++) {
		strbuf_puts(out, i ? ",{\"name\":" : "{\"name\":");
		json_string(out, chosen[i].name);
		strbuf_puts(out, ",\"value\":");
		json_string(out, chosen[i].value);
		strbuf_puts(out, ",\"why\":");
		json_string(out, chosen[i].why);
		strbuf_puts(out, ",\"override\":");
		json_string(out, chosen[i].override);
		strbuf_puts(out, "}");
	}
	strbuf_puts(out, "]");
}

/* One finding with the same fields the text report shows: kind, memory space, both
 * sites, how often, an example of the work-items, and the words. */
void report_json_finding(struct strbuf *out, const struct finding *f)
{
	struct strbuf words = { 0 };
	strbuf_printf(out, "{\"severity\":\"%s\",\"kind\":\"%s\",\"what\":",
		      diag_severity_name(f->severity), finding_kind_name(f->kind));
	json_text_or_null(out, f->what);
	strbuf_puts(out, ",\"space\":");
	json_text_or_null(out, f->space);
	strbuf_puts(out, ",\"kernel\":");
	json_text_or_null(out, f->kernel);
	strbuf_puts(out, ",\"file\":");
	json_text_or_null(out, f->file);
	strbuf_puts(out, ",\"at\":");
	json_site(out, &f->at);
	strbuf_puts(out, ",\"other\":");
	if (f->other.line > 0)
		json_site(out, &f->other);
	else
		strbuf_puts(out, "null");
	strbuf_printf(out, ",\"count\":%lu,\"example\":[", f->count);
	for (size_t i = 0; i < f->nexample; i++) {
		const struct entity *e = &f->example[i];
		strbuf_puts(out, i ? ",{" : "{");
		if (e->is_item) {
			json_triple(out, "global", e->global);
			strbuf_puts(out, ",");
			json_triple(out, "local", e->local);
			strbuf_puts(out, ",");
		}
		json_triple(out, "group", e->group);
		strbuf_puts(out, "}");
	}
	strbuf_puts(out, "],\"message\":");
	finding_headline(&words, f);
	json_string(out, words.data);
	words.len = 0;
	finding_note(&words, f);
	strbuf_puts(out, ",\"note\":");
	json_text_or_null(out, words.len ? words.data : NULL);
	strbuf_puts(out, ",\"input_set\":");
	json_text_or_null(out, f->input_set);
	strbuf_puts(out, ",\"rests_on\":");
	json_text_or_null(out, f->rests_on);
	/* The fix the text report gives, without its "fix: " prefix, and the line it
	 * points to where it names one. */
	struct advice a = { 0 };
	bool advised = f->severity != DIAG_NOTE && f->file && advice_for_file(f, f->file, &a);
	const char *fix = advised ? a.text : NULL;
	if (fix && strncmp(fix, "fix: ", 5) == 0)
		fix += 5;
	strbuf_puts(out, ",\"fix\":");
	json_text_or_null(out, fix);
	if (advised && a.line > 0)
		strbuf_printf(out, ",\"fix_line\":%d", a.line);
	if (advised)
		advice_free(&a);
	strbuf_printf(out, ",\"suppressed\":%s", f->suppressed ? "true" : "false");
	strbuf_puts(out, "}");
	strbuf_free(&words);
}

/* Prefixes every line of text, for TAP comments and indented build logs. */
static void prefixed(struct strbuf *out, const char *prefix, const char *text)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		strbuf_puts(out, prefix);
		strbuf_append(out, p, len);
		strbuf_puts(out, "\n");
		p += len + (nl != NULL);
	}
}

/* The mean kernel time of one launch of the run, in milliseconds. */
static double kernel_ms(const struct result *r)
{
	return r->kernel_ns / 1e6 / (r->repeat ? r->repeat : 1);
}

static void shape(struct strbuf *out, const struct result *r)
{
	char text[SHAPE_RUN_TEXT_MAX];
	strbuf_puts(out, r->n.dims > 0 ? shape_run_text(&r->n, &r->l, " ", text) : "build");
}

void report_json_shape(struct strbuf *out, const struct shape *s)
{
	if (s->dims == 0) {
		strbuf_puts(out, "null");
		return;
	}
	strbuf_puts(out, s->dims > 1 ? "[" : "");
	for (unsigned d = 0; d < s->dims; d++)
		strbuf_printf(out, "%s%lld", d ? "," : "", s->d[d]);
	strbuf_puts(out, s->dims > 1 ? "]" : "");
}

/* " [pocl-cpu N=1024 L=64]": which run a diagnostic comes from. */
static void run_tag(struct strbuf *out, const struct result *r)
{
	strbuf_printf(out, " [%s ", r->target);
	shape(out, r);
	strbuf_puts(out, "]");
}

void report_advice(struct strbuf *out, const struct finding *f, const char *file, bool colour)
{
	/* A note is what the simulator said without evidence: nothing to fix. */
	struct advice a;
	if (f->severity != DIAG_NOTE && advice_for_file(f, file, &a)) {
		if (a.line > 0)
			diag_render(out, file, a.line, a.col, DIAG_NOTE, a.text, colour);
		else
			diag_render_header(out, file, f->at.line, f->at.col, DIAG_NOTE, a.text,
					   colour);
		advice_free(&a);
	}
}

void report_finding(struct strbuf *out, const struct finding *f, const char *file_if_unknown,
		    const struct result *r, bool colour)
{
	const char *file = f->file ? f->file : file_if_unknown;
	struct strbuf msg = { 0 }, note = { 0 };
	if (f->suppressed) {
		/* Listed, never dropped: a note, which fails nothing. */
		strbuf_puts(&msg, "suppressed: ");
		finding_headline(&msg, f);
		if (r)
			run_tag(&msg, r);
		diag_render_header(out, file, f->at.line, f->at.col, DIAG_NOTE, msg.data, colour);
		strbuf_free(&msg);
		return;
	}
	finding_headline(&msg, f);
	if (r)
		run_tag(&msg, r);
	diag_render(out, file, f->at.line, f->at.col, f->severity, msg.data, colour);
	finding_note(&note, f);
	if (note.len > 0 && f->other.line > 0)
		diag_render(out, file, f->other.line, f->other.col, DIAG_NOTE, note.data, colour);
	else if (note.len > 0)
		diag_render_header(out, file, f->at.line, f->at.col, DIAG_NOTE, note.data, colour);
	if (f->rests_on) {
		char *why = xasprintf("this may follow from what clharness chose, not from the "
				      "kernel: %s",
				      f->rests_on);
		diag_render_header(out, file, f->at.line, f->at.col, DIAG_NOTE, why, colour);
		free(why);
	}
	report_advice(out, f, file, colour);
	strbuf_free(&msg);
	strbuf_free(&note);
}

/* Whether a result has anything to say beyond its verdict line. */
static bool has_diagnostics(const struct result *r)
{
	return (r->message && r->verdict != VERDICT_PASS) || r->findings.count > 0 ||
	       r->expect == EXPECT_UNMET || (r->printed && *r->printed) || r->remark;
}

/* The diagnostics of one result, GCC-style: the simulator's findings, the output
 * comparison, the detail (build log) indented, and how it differs from its golden. */
static void result_diagnostics(struct strbuf *out, const struct result *r, bool colour)
{
	annotate_expected(result_expected(r));
	for (size_t i = 0; i < r->findings.count; i++)
		report_finding(out, &r->findings.items[i], r->case_path, r, colour);
	if (r->message) {
		enum diag_severity sev = r->verdict == VERDICT_SKIP ? DIAG_NOTE
					 : result_expected(r)	    ? DIAG_WARNING
								    : DIAG_ERROR;
		struct strbuf msg = { 0 };
		if (r->output == VERDICT_WRONG_OUTPUT && r->racy)
			strbuf_puts(&msg, "racy kernel, output wrong as a race may make it: ");
		strbuf_puts(&msg, r->message);
		run_tag(&msg, r);
		diag_render(out, r->file ? r->file : r->case_path, r->line, r->col, sev, msg.data,
			    colour);
		strbuf_free(&msg);
	}
	if (r->detail && *r->detail)
		prefixed(out, "    ", r->detail);
	if (r->remark) {
		struct strbuf msg = { 0 };
		strbuf_puts(&msg, r->remark);
		run_tag(&msg, r);
		diag_render_header(out, r->case_path, 0, 0, DIAG_WARNING, msg.data, colour);
		strbuf_free(&msg);
	}
	if (r->printed && *r->printed) {
		struct strbuf msg = { 0 };
		strbuf_puts(&msg, "the kernel printed:");
		run_tag(&msg, r);
		diag_render_header(out, r->case_path, 0, 0, DIAG_NOTE, msg.data, colour);
		prefixed(out, "    | ", r->printed);
		strbuf_free(&msg);
	}
	if (r->expect == EXPECT_UNMET && r->expect_diff)
		strbuf_puts(out, r->expect_diff);
	annotate_expected(false);
}

static void text_result(struct reporter *rp, const struct result *r)
{
	static const char *const colours[] = {
		[VERDICT_PASS] = "\033[32m",	      [VERDICT_WRONG_OUTPUT] = "\033[31m",
		[VERDICT_RACE] = "\033[31m",	      [VERDICT_DIVERGENCE] = "\033[31m",
		[VERDICT_OUT_OF_BOUNDS] = "\033[31m", [VERDICT_UNINITIALIZED] = "\033[31m",
		[VERDICT_BUILD_ERROR] = "\033[31m",   [VERDICT_CASE_ERROR] = "\033[31m",
		[VERDICT_TIMEOUT] = "\033[31m",	      [VERDICT_CRASH] = "\033[31m",
		[VERDICT_INCOMPLETE] = "\033[31m",    [VERDICT_SKIP] = "\033[33m",
	};
	struct strbuf out = { 0 };
	const char *colour = rp->colour ? (result_expected(r) && r->verdict != VERDICT_SKIP
						   ? colours[VERDICT_PASS]
						   : colours[r->verdict])
					: "";
	strbuf_printf(&out, "%s%-18s%s %-32s %-14s ", colour, verdict_name(r->verdict),
		      rp->colour ? "\033[0m" : "", r->case_name, r->target);
	struct strbuf sh = { 0 };
	shape(&sh, r);
	strbuf_printf(&out, "%-20s", sh.data);
	strbuf_free(&sh);
	/* A run whose output had nothing to be compared with at its shape (at:) ran all
	 * the same. */
	bool uncompared = r->output == VERDICT_SKIP && r->verdict != VERDICT_SKIP && r->run_ns > 0;
	if (r->n.dims > 0 &&
	    (r->output == VERDICT_PASS || r->output == VERDICT_WRONG_OUTPUT || uncompared))
		strbuf_printf(&out, " %10.3f ms", kernel_ms(r));
	if (r->verdict != r->output && r->output == VERDICT_WRONG_OUTPUT)
		strbuf_puts(&out, "  output wrong too");
	if (uncompared)
		strbuf_puts(&out, "  (output not compared: its values are of another shape)");
	if (r->racy)
		strbuf_puts(&out,
			    r->output == VERDICT_WRONG_OUTPUT ? "  (racy: recorded)" : "  (racy)");
	if (r->shrunk_from.dims > 0) {
		char from[SHAPE_TEXT_MAX];
		strbuf_printf(&out, "  (shrunk from N=%s)", shape_format(&r->shrunk_from, from));
	}
	if (r->expect == EXPECT_UNMET)
		strbuf_puts(&out, "  (differs from its golden)");
	strbuf_puts(&out, "\n");
	if (has_diagnostics(r))
		result_diagnostics(&out, r, rp->colour);
	fputs(out.data, rp->out);
	strbuf_free(&out);
}

static void tap_result(struct reporter *rp, const struct result *r)
{
	struct strbuf out = { 0 };
	bool ok = result_expected(r);
	strbuf_printf(&out, "%s %zu - %s [%s] ", ok ? "ok" : "not ok", rp->results, r->case_name,
		      r->target);
	shape(&out, r);
	if (r->verdict == VERDICT_SKIP)
		strbuf_printf(&out, " # SKIP %s", r->message ? r->message : "");
	else if (r->expect == EXPECT_UNMET)
		strbuf_printf(&out, ": %s, which its golden does not say",
			      verdict_name(r->verdict));
	else if (r->verdict == VERDICT_WRONG_OUTPUT && r->racy)
		strbuf_puts(&out, ": racy kernel, wrong output recorded");
	else if (r->verdict != VERDICT_PASS)
		strbuf_printf(&out, ": %s%s", verdict_name(r->verdict), ok ? ", as expected" : "");
	strbuf_puts(&out, "\n");
	if (r->verdict != VERDICT_SKIP && has_diagnostics(r)) {
		struct strbuf diags = { 0 };
		result_diagnostics(&diags, r, false);
		prefixed(&out, "# ", diags.data ? diags.data : "");
		strbuf_free(&diags);
	}
	fputs(out.data, rp->out);
	strbuf_free(&out);
}

static void json_result(struct reporter *rp, const struct result *r)
{
	struct strbuf out = { 0 };
	strbuf_puts(&out, "{");
	json_key(&out, "case");
	json_string(&out, r->case_name);
	json_key(&out, "file");
	json_string(&out, r->case_path);
	json_key(&out, "target");
	json_string(&out, r->target);
	json_key(&out, "backend");
	json_string(&out, r->backend);
	json_key(&out, "N");
	report_json_shape(&out, &r->n);
	json_key(&out, "L");
	report_json_shape(&out, &r->l);
	if (r->shrunk_from.dims > 0) {
		json_key(&out, "shrunk_from");
		report_json_shape(&out, &r->shrunk_from);
	}
	if (r->nchosen > 0) {
		json_key(&out, "chosen");
		report_json_chosen(&out, r->chosen, r->nchosen);
	}
	json_key(&out, "shape");
	struct strbuf sh = { 0 };
	shape(&sh, r);
	json_string(&out, sh.data);
	strbuf_free(&sh);
	json_key(&out, "verdict");
	json_string(&out, verdict_name(r->verdict));
	json_key(&out, "expected");
	strbuf_puts(&out, result_expected(r) ? "true" : "false");
	/* Whether every diagnostic of the run was seen: false when the simulator stopped
	 * reporting, whatever the verdict. */
	json_key(&out, "complete");
	strbuf_puts(&out, result_cut_short(r) ? "false" : "true");
	json_key(&out, "output");
	json_string(&out, verdict_name(r->output));
	json_key(&out, "racy");
	strbuf_puts(&out, r->racy ? "true" : "false");
	json_key(&out, "kernel_ms");
	json_number(&out, kernel_ms(r));
	json_key(&out, "repeat");
	strbuf_printf(&out, "%u", r->repeat);
	/* Where the host's time went, for a reference that must keep up with the device. */
	json_key(&out, "run_ms");
	json_number(&out, r->run_ns / 1e6);
	json_key(&out, "reference_ms");
	json_number(&out, r->reference_ns / 1e6);
	json_key(&out, "compare_ms");
	json_number(&out, r->compare_ns / 1e6);
	json_key(&out, "drift");
	json_number(&out, r->drift);
	if (r->message) {
		json_key(&out, "diagnostic");
		json_diagnostic(&out, r->file ? r->file : r->case_path, r->line, r->col,
				r->message);
	}
	if (r->detail) {
		json_key(&out, "detail");
		json_string(&out, r->detail);
	}
	if (r->printed) {
		json_key(&out, "printed");
		json_string(&out, r->printed);
	}
	if (r->remark) {
		json_key(&out, "remark");
		json_string(&out, r->remark);
	}
	if (r->findings.count > 0) {
		json_key(&out, "findings");
		strbuf_puts(&out, "[");
		for (size_t i = 0; i < r->findings.count; i++) {
			strbuf_puts(&out, i ? "," : "");
			report_json_finding(&out, &r->findings.items[i]);
		}
		strbuf_puts(&out, "]");
	}
	if (r->expect == EXPECT_UNMET) {
		json_key(&out, "golden_diff");
		json_string(&out, r->expect_diff);
	}
	if (r->output == VERDICT_WRONG_OUTPUT) {
		json_key(&out, "mismatch");
		strbuf_puts(&out, "{\"buffer\":");
		json_string(&out, r->buffer);
		strbuf_printf(&out, ",\"index\":%zu,\"got\":", r->index);
		json_number(&out, r->got);
		strbuf_puts(&out, ",\"want\":");
		json_number(&out, r->want);
		strbuf_puts(&out, ",\"bound\":");
		json_number(&out, r->bound);
		strbuf_printf(&out, ",\"differ\":%zu,\"compared\":%zu,\"never_written\":%zu}",
			      r->mismatches, r->compared, r->unwritten);
	}
	strbuf_puts(&out, "}\n");
	fputs(out.data, rp->out);
	strbuf_free(&out);
}

static void junit_finish(struct reporter *rp, uint64_t wall_ns);

void report_set_junit(struct reporter *rp, FILE *junit)
{
	rp->junit = junit;
}

/* One <testcase>: expected results pass (a racy kernel's wrong output, or the race a
 * simulator found in it, goes to its system-out); harness-side verdicts (timeout, crash,
 * build and case errors) are errors, a wrong output or a bug found a failure, a skip
 * skipped. */
static void junit_result(struct reporter *rp, const struct result *r)
{
	struct strbuf *out = &rp->junit_cases;
	struct strbuf name = { 0 }, diags = { 0 };
	strbuf_printf(&name, "[%s] ", r->target);
	shape(&name, r);
	result_diagnostics(&diags, r, false);
	strbuf_puts(out, "  <testcase classname=\"");
	xml_text(out, r->case_name);
	strbuf_puts(out, "\" name=\"");
	xml_text(out, name.data);
	strbuf_printf(out, "\" time=\"%.6f\"", r->kernel_ns / 1e9);
	if (r->verdict == VERDICT_PASS) {
		strbuf_puts(out, "/>\n");
	} else {
		bool harness_side = r->verdict == VERDICT_BUILD_ERROR ||
				    r->verdict == VERDICT_CASE_ERROR ||
				    r->verdict == VERDICT_TIMEOUT || r->verdict == VERDICT_CRASH ||
				    r->verdict == VERDICT_INCOMPLETE;
		const char *element = r->verdict == VERDICT_SKIP ? "skipped"
				      : result_expected(r)	 ? "system-out"
				      : harness_side		 ? "error"
								 : "failure";
		rp->junit_skipped += r->verdict == VERDICT_SKIP;
		rp->junit_failures += strcmp(element, "failure") == 0;
		rp->junit_errors += strcmp(element, "error") == 0;
		strbuf_printf(out, ">\n    <%s", element);
		if (strcmp(element, "system-out") != 0) {
			strbuf_printf(out, " type=\"%s\" message=\"", verdict_name(r->verdict));
			xml_text(out, r->message);
			strbuf_puts(out, "\"");
		}
		strbuf_puts(out, ">");
		xml_text(out, diags.data);
		strbuf_printf(out, "</%s>\n  </testcase>\n", element);
	}
	strbuf_free(&name);
	strbuf_free(&diags);
}

void report_result(struct reporter *rp, const struct result *r)
{
	rp->results++;
	rp->cut_short += result_cut_short(r);
	if (!result_expected(r))
		rp->unexpected++;
	else if (r->verdict == VERDICT_PASS)
		rp->passed++;
	else if (r->verdict == VERDICT_SKIP)
		rp->skipped++;
	else
		rp->expected_bugs++;
	/* The summary's float error is the drift of kernels meant to be right: a racy
	 * kernel's matching elements are whatever its race left, near their bound or not. */
	if (!r->racy && r->drift > rp->worst_drift)
		rp->worst_drift = r->drift;
	rp->kernel_ns += r->kernel_ns;
	rp->run_ns += r->run_ns;
	for (size_t i = 0; i < r->findings.count; i++)
		rp->suppressed += r->findings.items[i].suppressed != 0;
	rp->reference_ns += r->reference_ns;
	rp->compare_ns += r->compare_ns;
	rp->builds += r->builds;
	rp->cached_builds += r->cached_builds;
	rp->generated += r->generated;
	rp->references += r->references;

	if (rp->junit)
		junit_result(rp, r);
	if (rp->findlog)
		findlog_add_result(rp->findlog, r);
	switch (rp->format) {
	case REPORT_TEXT:
		text_result(rp, r);
		break;
	case REPORT_TAP:
		tap_result(rp, r);
		break;
	case REPORT_JSON:
		json_result(rp, r);
		break;
	}
	fflush(rp->out);
}

void report_broken_case(struct reporter *rp, const char *path, const struct diag_list *diags)
{
	rp->broken_cases++;
	struct strbuf text = { 0 };
	diag_list_render(&text, diags, rp->colour);
	for (size_t i = 0; rp->findlog && i < diags->count; i++)
		findlog_add_diag(rp->findlog, &diags->items[i], "case-error");
	if (rp->junit) {
		rp->junit_errors++;
		strbuf_puts(&rp->junit_cases, "  <testcase classname=\"");
		xml_text(&rp->junit_cases, path);
		strbuf_puts(&rp->junit_cases,
			    "\" name=\"case file\">\n    <error type=\"case-error\" message=\"the "
			    "case file did not load\">");
		xml_text(&rp->junit_cases, text.data);
		strbuf_puts(&rp->junit_cases, "</error>\n  </testcase>\n");
	}
	if (rp->format == REPORT_TEXT) {
		fputs(text.data ? text.data : "", rp->out);
	} else if (rp->format == REPORT_TAP) {
		rp->results++;
		fprintf(rp->out, "not ok %zu - %s: case file error\n", rp->results, path);
		struct strbuf out = { 0 };
		prefixed(&out, "# ", text.data ? text.data : "");
		fputs(out.data ? out.data : "", rp->out);
		strbuf_free(&out);
	} else {
		for (size_t i = 0; i < diags->count; i++) {
			const struct diag *d = &diags->items[i];
			struct strbuf out = { 0 };
			strbuf_puts(&out, "{\"file\":");
			json_string(&out, path);
			strbuf_puts(&out, ",\"verdict\":\"case-error\",\"expected\":false,"
					  "\"diagnostic\":");
			json_diagnostic(&out, d->file, d->line, d->col, d->message);
			strbuf_puts(&out, "}\n");
			fputs(out.data, rp->out);
			strbuf_free(&out);
		}
	}
	strbuf_free(&text);
	fflush(rp->out);
}

void report_skip_all(struct reporter *rp, const char *reason)
{
	if (rp->findlog)
		findlog_incomplete(rp->findlog, reason);
	if (rp->junit) {
		rp->junit_skipped++;
		strbuf_puts(&rp->junit_cases,
			    "  <testcase classname=\"clharness\" name=\"devices\">\n"
			    "    <skipped message=\"");
		xml_text(&rp->junit_cases, reason);
		strbuf_puts(&rp->junit_cases, "\"/>\n  </testcase>\n");
		rp->results++;
		junit_finish(rp, 0);
		rp->results--;
	}
	if (rp->format == REPORT_TAP)
		fprintf(rp->out, "1..0 # SKIP %s\n", reason);
	else
		fprintf(stderr, "clharness: skipped: %s\n", reason);
}

static void junit_finish(struct reporter *rp, uint64_t wall_ns)
{
	size_t tests = rp->results + (rp->format == REPORT_TAP ? 0 : rp->broken_cases);
	fprintf(rp->junit,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"clharness\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
		"skipped=\"%zu\" time=\"%.3f\">\n%s</testsuite>\n",
		tests, rp->junit_failures, rp->junit_errors, rp->junit_skipped, wall_ns / 1e9,
		rp->junit_cases.data ? rp->junit_cases.data : "");
	fflush(rp->junit);
	strbuf_free(&rp->junit_cases);
}

void report_set_findlog(struct reporter *rp, struct findlog *log)
{
	rp->findlog = log;
}

/* An empty or partial log must not read as a clean one. */
static void findlog_finish(struct reporter *rp)
{
	char *why = NULL;
	if (rp->results == rp->skipped)
		why = xasprintf("nothing was checked: %zu result%s, every one a skip", rp->results,
				rp->results == 1 ? "" : "s");
	else if (rp->cut_short)
		why = xasprintf("%zu run%s cut short, the simulator having stopped reporting: "
				"what it would have reported later is unknown",
				rp->cut_short, rp->cut_short == 1 ? "" : "s");
	else if (rp->broken_cases)
		why = xasprintf("%zu case file%s did not load, and did not run", rp->broken_cases,
				rp->broken_cases == 1 ? "" : "s");
	if (why)
		findlog_incomplete(rp->findlog, why);
	free(why);
}

void report_finish(struct reporter *rp, size_t ntargets, uint64_t wall_ns, bool timing)
{
	if (rp->junit)
		junit_finish(rp, wall_ns);
	if (rp->findlog)
		findlog_finish(rp);
	/* TAP and JSON keep stdout for the protocol: the summary goes to comments or stderr. */
	FILE *out = rp->format == REPORT_TEXT ? rp->out : stderr;
	const char *lead = rp->format == REPORT_TAP ? "# " : "";
	if (rp->format == REPORT_TAP) {
		fprintf(rp->out, "1..%zu\n", rp->results);
		out = rp->out;
	}
	fprintf(out,
		"%ssummary: %zu result%s on %zu device%s: %zu pass, %zu expected bug%s (found "
		"by a simulator, or a racy kernel's output recorded), %zu skipped, %zu failed",
		lead, rp->results, rp->results == 1 ? "" : "s", ntargets, ntargets == 1 ? "" : "s",
		rp->passed, rp->expected_bugs, rp->expected_bugs == 1 ? "" : "s", rp->skipped,
		rp->unexpected);
	if (rp->cut_short)
		fprintf(out, "; %zu cut short, the simulator having stopped reporting",
			rp->cut_short);
	if (rp->broken_cases)
		fprintf(out, "; %zu case file%s did not load", rp->broken_cases,
			rp->broken_cases == 1 ? "" : "s");
	if (rp->suppressed)
		fprintf(out, "; %zu finding%s suppressed", rp->suppressed,
			rp->suppressed == 1 ? "" : "s");
	if (rp->unavailable)
		fprintf(out,
			"; %zu target%s unavailable, so nothing ran there (see the note above)",
			rp->unavailable, rp->unavailable == 1 ? "" : "s");
	if (report_all_skipped(rp)) {
		fprintf(out, "; every result a skip, so nothing was checked");
		annotate_diag(NULL, 0, 0, DIAG_WARNING,
			      "every result was a skip, so nothing was checked: each skip's note "
			      "says why");
	}
	fprintf(out, "; worst float error %.3g of its bound; %.2f s\n", rp->worst_drift,
		wall_ns / 1e9);
	if (timing) {
		double total = wall_ns / 1e9;
		double kernel = rp->kernel_ns / 1e9, reference = rp->reference_ns / 1e9,
		       compare = rp->compare_ns / 1e9;
		/* Launch overheads and transfers: the device run's wall time beyond its
		 * kernels'. */
		double transfers =
			rp->run_ns > rp->kernel_ns ? (rp->run_ns - rp->kernel_ns) / 1e9 : 0;
		double setup = total - kernel - transfers - reference - compare;
		if (rp->processes > 1)
			fprintf(out,
				"%stime: total %.3f s with up to %u processes side by side, whose "
				"own times add up to transfers %.3f s + kernel %.3f s + reference "
				"%.3f s + comparison %.3f s, and set-up the rest of each (run with "
				"-j 1 to see set-up apart)\n",
				lead, total, rp->processes, transfers, kernel, reference, compare);
		else
			fprintf(out,
			"%stime: total %.3f s = setup %.3f s (%.1f%%) + transfers %.3f s (%.1f%%) "
			"+ kernel %.3f s (%.1f%%) + reference %.3f s (%.1f%%) + comparison %.3f "
			"s (%.1f%%)\n",
			lead, total, setup, 100 * setup / total, transfers, 100 * transfers / total,
			kernel, 100 * kernel / total, reference, 100 * reference / total, compare,
			100 * compare / total);
		fprintf(out,
			"%swork: %zu program build%s and %zu from the program cache, %zu input "
			"buffer%s generated, %zu reference%s computed, %zu run%s\n",
			lead, rp->builds, rp->builds == 1 ? "" : "s", rp->cached_builds, rp->generated,
			rp->generated == 1 ? "" : "s", rp->references,
			rp->references == 1 ? "" : "s", rp->results, rp->results == 1 ? "" : "s");
	}
	fflush(out);
}

bool report_all_expected(const struct reporter *rp)
{
	return rp->unexpected == 0 && rp->broken_cases == 0;
}

bool report_all_skipped(const struct reporter *rp)
{
	return rp->results > 0 && rp->skipped == rp->results;
}
