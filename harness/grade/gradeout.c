/* gradeout.c - the class table and the other files a grading writes, and the merge of a
 * class graded in shards. */
#include "config.h"

#include "grade/gradeout.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "case/yamltext.h"
#include "grade/batch.h"
#include "grade/gradeload.h"
#include "grade/gradereport.h"
#include "results/report.h"
#include "results/sarif.h"

/* Writes `text` to dir/name; on failure says so in diags and returns 1. */
static size_t write_or_say(const char *dir, const char *name, const char *text,
			   struct diag_list *diags)
{
	if (write_text_file(dir, name, text) == 0)
		return 0;
	diag_add(diags, DIAG_ERROR, dir, 0, 0, "cannot write %s there: %s", name, strerror(errno));
	return 1;
}

/* The class's errors and warnings for the SARIF log. */
static struct findlog *class_findlog(const struct assignment *a,
				     const struct student_grade *grades, size_t n)
{
	struct findlog *log = findlog_new("grade", NULL);
	for (size_t i = 0; i < n; i++)
		grade_student_findings(log, a, &grades[i]);
	return log;
}

/* A page a student and one for the class (left to the merge in a shard), into --html's
 * folder, which grade made before grading. */
static size_t write_html(const struct class_outputs *o, const struct assignment *a,
			 const struct student_grade *grades, size_t n, struct diag_list *diags)
{
	size_t unwritten = 0;
	struct strbuf page = { 0 };
	for (size_t i = 0; i < n; i++) {
		grade_report_html(&page, a, &grades[i]);
		char *name = xasprintf("%s.html", grades[i].student);
		unwritten += write_or_say(o->html_dir, name, page.data, diags);
		free(name);
		strbuf_free(&page);
	}
	if (!o->no_table) {
		grade_table_html(&page, a, grades, n);
		unwritten += write_or_say(o->html_dir, "index.html", page.data, diags);
		strbuf_free(&page);
	}
	return unwritten;
}

size_t class_outputs_write(const struct class_outputs *o, const struct assignment *a,
			   const struct student_grade *grades, size_t n, char **table,
			   struct diag_list *diags)
{
	size_t unwritten = 0;
	struct strbuf csv = { 0 }, md = { 0 };
	grade_table_csv(&csv, a, grades, n);
	grade_table_markdown(&md, a, grades, n);
	if (!o->no_table) {
		unwritten += write_or_say(o->out_dir, "class.csv", csv.data, diags);
		unwritten += write_or_say(o->out_dir, "class.md", md.data, diags);
	}
	if (o->junit_path) {
		struct strbuf xml = { 0 };
		grade_report_junit(&xml, a, grades, n);
		char *copy = xstrdup(o->junit_path);
		char *slash = strrchr(copy, '/');
		const char *dir = slash ? (slash == copy ? "/" : copy) : ".";
		const char *name = slash ? slash + 1 : copy;
		if (slash && slash != copy)
			*slash = '\0';
		unwritten += write_or_say(dir, name, xml.data, diags);
		free(copy);
		strbuf_free(&xml);
	}
	if (o->sarif_path) {
		struct findlog *log = class_findlog(a, grades, n);
		if (sarif_write(log, o->sarif_path) < 0) {
			diag_add(diags, DIAG_ERROR, o->sarif_path, 0, 0,
				 "cannot write the SARIF log: %s", strerror(errno));
			unwritten++;
		}
		findlog_free(log);
	}
	if (o->html_dir)
		unwritten += write_html(o, a, grades, n, diags);
	if (o->gradescope_dir && n == 1) {
		struct strbuf json = { 0 };
		grade_report_gradescope(&json, a, &grades[0], o->seconds);
		unwritten += write_or_say(o->gradescope_dir, "results.json", json.data, diags);
		strbuf_free(&json);
	}
	strbuf_free(&csv);
	*table = strbuf_take(&md);
	return unwritten;
}

void grades_from_reports(const char *out_dir, const struct assignment *a,
			 struct student_grade *grades, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s.json", out_dir, grades[i].student);
		char *cause = NULL;
		struct student_grade whole;
		if (grade_report_read(path, a, &whole, &cause) == 0) {
			student_grade_free(&grades[i]);
			grades[i] = whole;
		}
		free(cause);
		free(path);
	}
}

char *shard_manifest_name(const struct shard *s)
{
	return xasprintf("shard-%u-of-%u.json", s->index, s->count);
}

int shard_manifest_write(const char *dir, const struct assignment *a, const struct shard *s,
			 const struct submission *subs, size_t n)
{
	struct strbuf json = { 0 };
	strbuf_puts(&json, "{\"assignment\":");
	json_string(&json, a->name);
	strbuf_printf(&json, ",\"shard\":%u,\"shards\":%u,\"students\":[", s->index, s->count);
	for (size_t i = 0; i < n; i++) {
		strbuf_puts(&json, i ? "," : "");
		json_string(&json, subs[i].student);
	}
	strbuf_puts(&json, "]}\n");
	char *name = shard_manifest_name(s);
	int status = write_text_file(dir, name, json.data);
	free(name);
	strbuf_free(&json);
	return status;
}

/* One shard's manifest as read. */
struct manifest {
	char *dir;
	char **students;
	size_t nstudents;
};

/* Reads the manifest at `path` of folder `dir` into m (for shard *s). Returns -1 after
 * saying what is wrong in diags. */
static int manifest_read(const char *dir, const char *path, const struct assignment *a,
			 struct shard *s, struct manifest *m, struct diag_list *diags)
{
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read it: %s", file_error(errno));
		return -1;
	}
	struct yaml_error err;
	struct fy_document *doc = yaml_from_text(text, true, true, &err);
	struct fy_node *root = doc ? fy_document_root(doc) : NULL;
	char *assignment = json_text(root, "assignment");
	struct fy_node *students = json_member(root, "students");
	double index = json_number(root, "shard", 0), count = json_number(root, "shards", 0);
	int status = -1;
	if (doc == NULL) {
		diag_add(diags, DIAG_ERROR, path, err.line, err.col, "%s",
			 err.msg ? err.msg : "not JSON");
	} else if (assignment == NULL || students == NULL || !fy_node_is_sequence(students) ||
		   index < 1 || count < index || count > 10000) {
		diag_add(diags, DIAG_ERROR, path, 1, 1,
			 "not a shard's manifest as `clharness grade --shard K/N` writes it");
	} else if (strcmp(assignment, a->name) != 0) {
		diag_add(diags, DIAG_ERROR, path, 1, 1, "a shard of assignment %s, not of %s",
			 assignment, a->name);
	} else {
		*s = (struct shard){ (unsigned)index, (unsigned)count };
		*m = (struct manifest){ .dir = xstrdup(dir) };
		void *iter = NULL;
		struct fy_node *item;
		while ((item = fy_node_sequence_iterate(students, &iter)) != NULL) {
			size_t slen;
			const char *name =
				fy_node_is_scalar(item) ? fy_node_get_scalar(item, &slen) : NULL;
			m->students =
				xreallocarray(m->students, m->nstudents + 1, sizeof *m->students);
			m->students[m->nstudents++] = name ? xstrndup(name, slen) : xstrdup("");
		}
		status = 0;
	}
	free(assignment);
	fy_document_destroy(doc);
	yaml_error_free(&err);
	free(text);
	return status;
}

static void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < m->nstudents; i++)
		free(m->students[i]);
	free(m->students);
	free(m->dir);
	*m = (struct manifest){ 0 };
}

/* Copies dir/name to out_dir/name, unless they are one folder. */
static void copy_report(const char *dir, const char *out_dir, const char *name,
			struct diag_list *diags)
{
	char a[PATH_MAX], b[PATH_MAX];
	if (realpath(dir, a) && realpath(out_dir, b) && strcmp(a, b) == 0)
		return;
	char *path = xasprintf("%s/%s", dir, name);
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL)
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read it: %s", file_error(errno));
	else
		write_or_say(out_dir, name, text, diags);
	free(text);
	free(path);
}

/* Finds the manifests in `dirs`, a shard each, into shards[0..count). Returns count, or
 * 0 after saying in diags what is missing or twice. */
static unsigned find_manifests(const struct assignment *a, char *const *dirs, size_t ndirs,
			       struct manifest **out, struct diag_list *diags)
{
	unsigned count = 0;
	struct manifest *shards = NULL;
	size_t errors = diag_error_count(diags);
	for (size_t d = 0; d < ndirs; d++) {
		char **paths;
		long nent = dir_entries(dirs[d], false, &paths);
		if (nent < 0) {
			diag_add(diags, DIAG_ERROR, dirs[d], 0, 0, "cannot read the folder: %s",
				 file_error(errno));
			continue;
		}
		for (long e = 0; e < nent; e++) {
			const char *base = strrchr(paths[e], '/');
			base = base ? base + 1 : paths[e];
			if (strncmp(base, "shard-", 6) != 0 || !has_suffix(base, ".json"))
				continue;
			struct shard s;
			struct manifest m;
			if (manifest_read(dirs[d], paths[e], a, &s, &m, diags) < 0)
				continue;
			if (count == 0) {
				count = s.count;
				shards = xcalloc(count + 1, sizeof *shards);
			}
			if (s.count != count) {
				diag_add(diags, DIAG_ERROR, paths[e], 1, 1,
					 "a shard of %u, where another manifest splits the class "
					 "into %u",
					 s.count, count);
				manifest_free(&m);
			} else if (shards[s.index - 1].dir) {
				diag_add(diags, DIAG_ERROR, paths[e], 1, 1,
					 "shard %u of %u again: %s has it too", s.index, count,
					 shards[s.index - 1].dir);
				manifest_free(&m);
			} else {
				shards[s.index - 1] = m;
			}
		}
		strings_free(paths, nent);
	}
	if (count == 0 && diag_error_count(diags) == errors)
		diag_add(diags, DIAG_ERROR, ndirs ? dirs[0] : ".", 0, 0,
			 "no shard's manifest (shard-K-of-N.json) here: grade each shard with "
			 "`clharness grade --shard K/N` first");
	for (unsigned k = 0; k < count; k++)
		if (shards[k].dir == NULL)
			diag_add(diags, DIAG_ERROR, dirs[0], 0, 0,
				 "shard %u of %u is missing: no shard-%u-of-%u.json in the "
				 "folders given; grade it with `clharness grade --shard %u/%u`",
				 k + 1, count, k + 1, count, k + 1, count);
	if (diag_error_count(diags) > errors) {
		for (unsigned k = 0; k < count; k++)
			manifest_free(&shards[k]);
		free(shards);
		return 0;
	}
	*out = shards;
	return count;
}

int grade_merge(const struct assignment *a, char *const *dirs, size_t ndirs, const char *out_dir,
		struct student_grade **grades, size_t *n, struct diag_list *diags)
{
	*grades = NULL;
	*n = 0;
	struct manifest *shards;
	unsigned count = find_manifests(a, dirs, ndirs, &shards, diags);
	if (count == 0)
		return -1;
	size_t total = 0;
	for (unsigned k = 0; k < count; k++)
		total += shards[k].nstudents;
	struct student_grade *all = xcalloc(total + 1, sizeof *all);
	size_t errors = diag_error_count(diags);
	for (unsigned k = 0; k < count; k++) {
		struct shard s = { k + 1, count };
		for (size_t i = 0; i < shards[k].nstudents; i++) {
			size_t at = shard_item(&s, i);
			const char *student = shards[k].students[i];
			char *path = xasprintf("%s/%s.json", shards[k].dir, student);
			char *cause = NULL;
			if (at >= total || all[at].student) {
				diag_add(diags, DIAG_ERROR, shards[k].dir, 0, 0,
					 "shard %u of %u lists students that the other shards' "
					 "split of one class cannot hold (%s): were they graded "
					 "from other submissions?",
					 k + 1, count, student);
			} else if (access(path, F_OK) != 0) {
				diag_add(diags, DIAG_ERROR, path, 0, 0,
					 "no report for %s of shard %u of %u: that shard did not "
					 "finish; grade it again with `clharness grade --shard "
					 "%u/%u --resume`",
					 student, k + 1, count, k + 1, count);
			} else if (grade_report_read(path, a, &all[at], &cause) < 0) {
				diag_add(diags, DIAG_ERROR, path, 0, 0, "%s", cause);
			} else {
				char *txt = xasprintf("%s.txt", student);
				char *json = xasprintf("%s.json", student);
				copy_report(shards[k].dir, out_dir, txt, diags);
				copy_report(shards[k].dir, out_dir, json, diags);
				free(txt);
				free(json);
			}
			free(cause);
			free(path);
		}
	}
	for (unsigned k = 0; k < count; k++)
		manifest_free(&shards[k]);
	free(shards);
	if (diag_error_count(diags) > errors) {
		for (size_t i = 0; i < total; i++)
			student_grade_free(&all[i]);
		free(all);
		return -1;
	}
	*grades = all;
	*n = total;
	return 0;
}
