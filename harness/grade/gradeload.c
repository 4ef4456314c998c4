/* gradeload.c - a student's JSON report read back through libfyaml's JSON mode. */
#include "config.h"

#include "grade/gradeload.h"

#include "grade/gradereport.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/yamltext.h"
#include "results/result.h"
#include "results/findlog.h"
#include "source/nativecode.h"

static void read_diags(struct fy_node *seq, struct diag_list *list)
{
	if (seq == NULL || !fy_node_is_sequence(seq))
		return;
	void *iter = NULL;
	struct fy_node *d;
	while ((d = fy_node_sequence_iterate(seq, &iter)) != NULL) {
		char *file = json_text(d, "file"), *severity = json_text(d, "severity"),
		     *message = json_text(d, "message");
		enum diag_severity sev = DIAG_ERROR;
		for (int s = DIAG_ERROR; severity && s <= DIAG_NOTE; s++)
			if (strcmp(diag_severity_name((enum diag_severity)s), severity) == 0)
				sev = (enum diag_severity)s;
		diag_add(list, sev, file ? file : "", (int)json_whole(d, "line", 0, INT_MAX, 0),
			 (int)json_whole(d, "col", 0, INT_MAX, 0), "%s", message ? message : "");
		char *code = json_text(d, "code");
		diag_set_code(list, code ? findlog_rule_id(code) : NULL);
		free(code);
		free(file);
		free(severity);
		free(message);
	}
}

/* The check of the report's `checks` list at `node` into cg; -1 when it is not check
 * `c`. */
static int read_check(struct fy_node *node, const struct grade_check *c, struct check_grade *cg)
{
	char *name = json_text(node, "name");
	bool same = name && strcmp(name, c->name) == 0;
	free(name);
	if (!same)
		return -1;
	cg->points = json_number(node, "points", 0);
	cg->runs = (size_t)json_whole(node, "runs", 0, INT_MAX, 0);
	cg->passed = (size_t)json_whole(node, "runs_passed", 0, INT_MAX, 0);
	cg->speed = json_number(node, "speed", 0);
	cg->summary = json_text(node, "summary");
	char *stopped = json_text(node, "stopped");
	if (stopped && verdict_from_name(stopped, &cg->stopped)) {
		cg->verdicts |= 1u << cg->stopped;
		cg->stopped_at = json_text(node, "stopped_at");
	}
	free(stopped);
	read_diags(json_member(node, "diagnostics"), &cg->diags);
	return 0;
}

/* The table's note ("timeout", "crash and timeout") as verdict bits. */
static unsigned note_verdicts(const char *note)
{
	unsigned bits = 0;
	for (size_t k = 0; note && k < grade_noted_count; k++)
		if (strstr(note, verdict_name(grade_noted_verdicts[k])))
			bits |= 1u << grade_noted_verdicts[k];
	return bits;
}

/* The grader's own word the note starts with, where it has one: the native code that
 * refused the submission, or "sandbox". */
static char *note_word(const char *note)
{
	if (note == NULL)
		return NULL;
	if (strncmp(note, "sandbox", 7) == 0)
		return xstrdup("sandbox");
	for (int k = 0; k < NATIVE_KINDS; k++) {
		const char *word = native_kind_name((enum native_kind)k);
		if (strncmp(note, word, strlen(word)) == 0)
			return xstrdup(word);
	}
	return NULL;
}

int grade_report_read(const char *path, const struct assignment *a, struct student_grade *g,
		      char **cause)
{
	*g = (struct student_grade){ 0 };
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL) {
		*cause = xasprintf("cannot read %s: %s", path, file_error(errno));
		return -1;
	}
	struct yaml_error err;
	struct fy_document *doc = yaml_from_text(text, true, true, &err);
	struct fy_node *root = doc ? fy_document_root(doc) : NULL;
	char *assignment = json_text(root, "assignment");
	char *student = json_text(root, "student");
	struct fy_node *checks = json_member(root, "checks");
	int status = -1;
	if (doc == NULL) {
		*cause = xasprintf("%s:%d:%d: %s", path, err.line, err.col,
				   err.msg ? err.msg : "not JSON");
		goto out;
	}
	if (student == NULL || assignment == NULL || checks == NULL ||
	    !fy_node_is_sequence(checks)) {
		*cause = xasprintf("%s is no student's report: it lacks \"assignment\", "
				   "\"student\" or \"checks\"",
				   path);
		goto out;
	}
	if (strcmp(assignment, a->name) != 0 ||
	    fy_node_sequence_item_count(checks) != (int)a->nchecks) {
		*cause = xasprintf("%s is a report of %s, not of this %s", path, assignment,
				   a->name);
		goto out;
	}
	char *submission = json_text(root, "submission");
	student_grade_init(a, student, submission, g);
	free(submission);
	g->total = json_number(root, "total", 0);
	char *source = json_text(root, "source");
	g->source_hash = source ? strtoull(source, NULL, 16) : 0;
	free(source);
	char *note = json_text(root, "note");
	g->verdicts = note_verdicts(note);
	g->note = json_text(root, "own_note");
	if (g->note == NULL)
		g->note = note_word(note); /* a report written before own_note was */
	struct fy_node *blocker = json_member(root, "blocker");
	if (blocker && fy_node_is_mapping(blocker)) {
		char *verdict = json_text(blocker, "verdict");
		if (!verdict_from_name(verdict, &g->blocker_verdict))
			g->blocker_verdict = VERDICT_CASE_ERROR;
		free(verdict);
		g->blocker = json_text(blocker, "message");
		if (g->blocker == NULL)
			g->blocker = xstrdup("not gradable");
		g->blocker_log = json_text(blocker, "log");
		read_diags(json_member(blocker, "diagnostics"), &g->blocker_diags);
	}
	free(note);
	for (size_t i = 0; i < a->nchecks; i++) {
		if (read_check(fy_node_sequence_get_by_index(checks, (int)i), &a->checks[i],
			       &g->checks[i]) < 0) {
			*cause = xasprintf("%s: check %zu is not %s, as this %s has it", path,
					   i + 1, a->checks[i].name, a->name);
			student_grade_free(g);
			goto out;
		}
	}
	status = 0;
out:
	free(assignment);
	free(student);
	fy_document_destroy(doc);
	yaml_error_free(&err);
	free(text);
	return status;
}
