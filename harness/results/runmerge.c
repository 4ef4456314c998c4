/* runmerge.c - putting the shards of a run back in one run's order. */
#include "config.h"

#include "results/runmerge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "case/yamltext.h"
#include "results/report.h"

void run_shard_header(struct strbuf *out, const struct shard *s, char *const *files, size_t n)
{
	strbuf_printf(out, "{\"shard\":%u,\"shards\":%u,\"files\":[", s->index, s->count);
	for (size_t i = 0; i < n; i++) {
		strbuf_puts(out, i ? "," : "");
		json_string(out, files[i]);
	}
	strbuf_puts(out, "]}\n");
}

void run_shard_footer(struct strbuf *out, const struct shard *s)
{
	strbuf_printf(out, "{\"shard\":%u,\"shards\":%u,\"end\":true}\n", s->index, s->count);
}

/* One result line of a shard, with what orders it. */
struct line {
	char *text;
	char *file;
	char *target;
	size_t shard; /* 0-based */
	bool used;
};

struct shard_file {
	const char *path;
	char **files;
	size_t nfiles;
};

/* Reads one shard's file: its header into sf, its results appended to lines. */
static int read_shard(const char *path, size_t *count_out, struct shard *s, struct shard_file *sf,
		      struct line **lines, size_t *nlines, struct diag_list *diags)
{
	size_t len;
	char *text = read_file(path, &len);
	if (text == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read it: %s", file_error(errno));
		return -1;
	}
	int lineno = 0, status = 0;
	bool header = false, ended = false, trailing = false;
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		if (p[strspn(p, " \t\r")] == '\0')
			continue;
		struct yaml_error err;
		struct fy_document *doc = yaml_from_text(p, true, false, &err);
		struct fy_node *root = doc ? fy_document_root(doc) : NULL;
		if (doc == NULL) {
			diag_add(diags, DIAG_ERROR, path, lineno, err.col ? err.col : 1, "JSON: %s",
				 err.msg ? err.msg : "not a JSON value");
			status = -1;
		} else if (ended) {
			trailing = true;
			diag_add(diags, DIAG_ERROR, path, lineno, 1,
				 "lines after the shard's closing line: give each shard's output "
				 "as a file of its own");
			status = -1;
		} else if (header && json_bool(root, "end")) {
			ended = json_number(root, "shard", 0) == s->index &&
				json_number(root, "shards", 0) == s->count;
			if (!ended) {
				diag_add(diags, DIAG_ERROR, path, lineno, 1,
					 "the closing line of another shard than shard %u of %u, "
					 "which the file opens with",
					 s->index, s->count);
				status = -1;
			}
		} else if (lineno == 1 && json_member(root, "shard")) {
			double k = json_number(root, "shard", 0),
			       n = json_number(root, "shards", 0);
			struct fy_node *files = json_member(root, "files");
			if (k >= 1 && n >= k && n <= 10000 && files && fy_node_is_sequence(files)) {
				*s = (struct shard){ (unsigned)k, (unsigned)n };
				header = true;
				void *iter = NULL;
				struct fy_node *f;
				while ((f = fy_node_sequence_iterate(files, &iter)) != NULL) {
					size_t flen;
					const char *name = fy_node_get_scalar(f, &flen);
					sf->files = xreallocarray(sf->files, sf->nfiles + 1,
								  sizeof *sf->files);
					sf->files[sf->nfiles++] = xstrndup(name ? name : "", flen);
				}
			}
		} else {
			*lines = xreallocarray(*lines, *nlines + 1, sizeof **lines);
			(*lines)[(*nlines)++] =
				(struct line){ .text = xstrdup(p),
					       .file = json_text(root, "file"),
					       .target = json_text(root, "target") };
		}
		fy_document_destroy(doc);
		yaml_error_free(&err);
		if (trailing)
			break; /* what follows is no longer this shard's: one error says so */
	}
	free(text);
	if (!header) {
		diag_add(diags, DIAG_ERROR, path, 1, 1,
			 "no shard's first line: write it with `clharness run --json --shard K/N`");
		return -1;
	}
	/* A run killed part-way (a job's time limit, a lost node) leaves whole lines and
	 * fewer of them: merged as they are, its missing cases would read as never run. */
	if (!ended) {
		diag_add(diags, DIAG_ERROR, path, lineno, 1,
			 "shard %u of %u has no closing line: its run stopped before its end "
			 "(killed, out of time, or a setup error its standard error names), so "
			 "results of its cases are missing; run it again with `clharness run "
			 "--json --shard %u/%u`",
			 s->index, s->count, s->index, s->count);
		status = -1;
	}
	*count_out = s->count;
	return status;
}

/* Appends every unused line of shard k for `file` on `target`, in the shard's order. */
static void take_lines(struct line *lines, size_t nlines, size_t k, const char *file,
		       const char *target, struct strbuf *out)
{
	for (size_t i = 0; i < nlines; i++) {
		struct line *l = &lines[i];
		if (l->used || l->shard != k || !l->file || !l->target ||
		    strcmp(l->file, file) != 0 || strcmp(l->target, target) != 0)
			continue;
		strbuf_printf(out, "%s\n", l->text);
		l->used = true;
	}
}

int run_merge(char *const *paths, size_t n, struct strbuf *out, struct diag_list *diags)
{
	struct line *lines = NULL;
	size_t nlines = 0, count = 0;
	struct shard_file *shards = NULL;
	size_t errors = diag_error_count(diags);
	for (size_t i = 0; i < n; i++) {
		struct shard s = { 0 };
		struct shard_file sf = { .path = paths[i] };
		size_t first = nlines, this_count = 0;
		if (read_shard(paths[i], &this_count, &s, &sf, &lines, &nlines, diags) < 0 &&
		    this_count == 0)
			continue;
		if (count == 0) {
			count = this_count;
			shards = xcalloc(count + 1, sizeof *shards);
		}
		if (this_count != count) {
			diag_add(diags, DIAG_ERROR, paths[i], 1, 1,
				 "a shard of %zu, where another file splits the run into %zu",
				 this_count, count);
			strings_free(sf.files, (long)sf.nfiles);
			continue;
		}
		if (shards[s.index - 1].path) {
			diag_add(diags, DIAG_ERROR, paths[i], 1, 1,
				 "shard %u of %zu again: %s has it too", s.index, count,
				 shards[s.index - 1].path);
			strings_free(sf.files, (long)sf.nfiles);
			continue;
		}
		for (size_t l = first; l < nlines; l++)
			lines[l].shard = s.index - 1;
		shards[s.index - 1] = sf;
	}
	for (size_t k = 0; k < count; k++)
		if (shards[k].path == NULL)
			diag_add(diags, DIAG_ERROR, n ? paths[0] : ".", 0, 0,
				 "shard %zu of %zu is missing: none of the files given is its "
				 "output; run it with `clharness run --json --shard %zu/%zu`",
				 k + 1, count, k + 1, count);
	if (diag_error_count(diags) == errors) {
		/* The targets in the order the run visited them, as the lines first name
		 * them. */
		char **targets = NULL;
		size_t ntargets = 0;
		for (size_t i = 0; i < nlines; i++) {
			bool known = lines[i].target == NULL;
			for (size_t t = 0; t < ntargets && !known; t++)
				known = strcmp(targets[t], lines[i].target) == 0;
			if (!known) {
				targets = xreallocarray(targets, ntargets + 1, sizeof *targets);
				targets[ntargets++] = lines[i].target;
			}
		}
		size_t total = 0;
		for (size_t k = 0; k < count; k++)
			total += shards[k].nfiles;
		for (size_t t = 0; t < ntargets; t++)
			for (size_t g = 0; g < total; g++) {
				size_t k = g % count, at = g / count;
				if (at < shards[k].nfiles)
					take_lines(lines, nlines, k, shards[k].files[at],
						   targets[t], out);
			}
		/* What belongs to no case file of the run comes last, as it came. */
		for (size_t i = 0; i < nlines; i++)
			if (!lines[i].used)
				strbuf_printf(out, "%s\n", lines[i].text);
		free(targets);
	}
	for (size_t i = 0; i < nlines; i++) {
		free(lines[i].text);
		free(lines[i].file);
		free(lines[i].target);
	}
	free(lines);
	for (size_t k = 0; k < count; k++)
		strings_free(shards[k].files, (long)shards[k].nfiles);
	free(shards);
	return diag_error_count(diags) > errors ? -1 : 0;
}
