/* resultfile.c - reads JSON Lines results back through libfyaml, whose JSON mode parses
 * the objects report.c writes. */
#include "config.h"

#include "results/resultfile.h"

#include <errno.h>
#include <limits.h>
#include <libfyaml.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "case/yamlguard.h"
#include "case/yamltext.h"

static void read_findings(struct fy_node *seq, struct recorded_result *r)
{
	if (seq == NULL || !fy_node_is_sequence(seq))
		return;
	void *iter = NULL;
	struct fy_node *f;
	while ((f = fy_node_sequence_iterate(seq, &iter)) != NULL) {
		r->findings = xreallocarray(r->findings, r->nfindings + 1, sizeof *r->findings);
		r->findings[r->nfindings++] = (struct recorded_finding){
			.severity = json_text(f, "severity"),
			.kind = json_text(f, "kind"),
			.what = json_text(f, "what"),
			.space = json_text(f, "space"),
			.line = (int)json_whole(json_member(f, "at"), "line", 0, INT_MAX, 0),
			.other_line =
				(int)json_whole(json_member(f, "other"), "line", 0, INT_MAX, 0),
		};
	}
}

static void recorded_result_free(struct recorded_result *r)
{
	for (size_t i = 0; i < r->nfindings; i++) {
		free(r->findings[i].severity);
		free(r->findings[i].kind);
		free(r->findings[i].what);
		free(r->findings[i].space);
	}
	free(r->findings);
	free(r->case_name);
	free(r->target);
	free(r->verdict);
	free(r->output);
	free(r->shape);
}

/* Parses one line, first in a child process when `guard`; false after saying what is
 * wrong with it. */
static bool read_line(const char *path, int lineno, const char *text, bool guard,
		      struct recorded_list *list, struct diag_list *diags)
{
	struct yaml_error err;
	struct fy_document *doc = yaml_from_text(text, true, guard, &err);
	struct fy_node *root = doc ? fy_document_root(doc) : NULL;
	bool ok = false;
	if (doc == NULL) {
		diag_add(diags, DIAG_ERROR, path, lineno, err.msg ? err.col : 1, "JSON: %s",
			 err.msg ? err.msg : "not a JSON value");
	} else if (json_member(root, "shard") && !json_member(root, "case")) {
		ok = true; /* the line a shard's output opens with (runmerge.h) */
	} else {
		struct recorded_result r = {
			.case_name = json_text(root, "case"),
			.target = json_text(root, "target"),
			.verdict = json_text(root, "verdict"),
			.output = json_text(root, "output"),
			.shape = json_text(root, "shape"),
		};
		char *backend = json_text(root, "backend");
		r.simulated = backend && strcmp(backend, "device") != 0;
		free(backend);
		if (r.case_name == NULL || r.target == NULL || r.verdict == NULL) {
			diag_add(
				diags, DIAG_ERROR, path, lineno, 1,
				"a result needs \"case\", \"target\" and \"verdict\", as `clharness "
				"run --json` writes them");
			recorded_result_free(&r);
		} else {
			read_findings(json_member(root, "findings"), &r);
			list->items =
				xreallocarray(list->items, list->count + 1, sizeof *list->items);
			list->items[list->count++] = r;
			ok = true;
		}
	}
	fy_document_destroy(doc);
	yaml_error_free(&err);
	return ok;
}

int resultfile_read(const char *path, struct recorded_list *list, struct diag_list *diags)
{
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read the results: %s",
			 file_error(errno));
		return -1;
	}
	resultfile_parse(path, text, list, diags);
	free(text);
	return 0;
}

void resultfile_parse(const char *path, char *text, struct recorded_list *list,
		      struct diag_list *diags)
{
	/* One child process tries every line; only where libfyaml dies on one of them is
	 * each line tried in a child of its own, to find it and keep the rest. */
	char *why = NULL;
	bool guard = yaml_survives(text, true, true, &why) < 0;
	free(why);
	int lineno = 1;
	for (char *line = text; line && *line; lineno++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (line[strspn(line, " \t\r")] != '\0')
			read_line(path, lineno, line, guard, list, diags);
		line = nl ? nl + 1 : NULL;
	}
}

void recorded_list_free(struct recorded_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		recorded_result_free(&list->items[i]);
	free(list->items);
	*list = (struct recorded_list){ 0 };
}
