/* submission.c - finds each student's kernel file. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "grade/submission.h"

static bool is_kernel_file(const char *path)
{
	return has_suffix(path, ".cl");
}

/* The last part of a path, without a trailing '/' or a ".cl". */
static char *student_name(const char *path)
{
	char *copy = xstrdup(path);
	size_t len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	const char *slash = strrchr(copy, '/');
	char *name = xstrdup(slash ? slash + 1 : copy);
	free(copy);
	if (is_kernel_file(name))
		name[strlen(name) - 3] = '\0';
	return name;
}

static void add(struct submission **out, size_t *count, char *student, char *path, char *problem,
		char *folder)
{
	*out = xreallocarray(*out, *count + 1, sizeof **out);
	(*out)[(*count)++] = (struct submission){ student, path, problem, folder, NULL, 0 };
}

/* Why the .cl entry `path` cannot be graded, or NULL. Only a regular file of the folder's
 * own: a link could show the student any file the grader can read (another student's,
 * the reference kernel), in the diagnostics of their report. */
static char *kernel_file_problem(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return xasprintf("%s cannot be read: %s", path, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return xasprintf("%s is a symbolic link: submit the file itself", path);
	if (!S_ISREG(st.st_mode))
		return xasprintf("%s is not a regular file", path);
	return NULL;
}

/* The .cl files among `paths`. */
static size_t count_kernels(char **paths, long n)
{
	size_t kernels = 0;
	for (long i = 0; i < n; i++)
		kernels += is_kernel_file(paths[i]);
	return kernels;
}

/* Whether the hidden folder `dir` is no submission: one that holds no .cl file, such as
 * the .git of a student's clone. Every other entry, hidden or not, is graded or
 * reported. */
static bool is_hidden_metadata(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	if ((slash ? slash[1] : dir[0]) != '.')
		return false;
	char **inner;
	long m = dir_entries(dir, true, &inner);
	size_t kernels = m < 0 ? 0 : count_kernels(inner, m);
	strings_free(inner, m);
	return kernels == 0;
}

/* One student's folder, whose entries are `paths`: its one .cl file. */
static void add_student_dir(struct submission **out, size_t *count, const char *dir, char **paths,
			    long n)
{
	const char *found = NULL;
	size_t kernels = 0;
	for (long i = 0; i < n; i++)
		if (is_kernel_file(paths[i]) && kernels++ == 0)
			found = paths[i];
	char *problem = NULL;
	if (kernels == 0)
		problem = xasprintf("%s holds no .cl file", dir);
	else if (kernels == 1)
		problem = kernel_file_problem(found);
	if (kernels <= 1) {
		add(out, count, student_name(dir), problem ? NULL : xstrdup(found), problem,
		    xstrdup(dir));
		return;
	}
	/* Several: the grader picks the one that defines the kernels asked for, if one does. */
	add(out, count, student_name(dir), NULL, NULL, xstrdup(dir));
	struct submission *sub = &(*out)[*count - 1];
	sub->files = xcalloc(kernels + 1, sizeof *sub->files);
	for (long i = 0; i < n; i++)
		if (is_kernel_file(paths[i]))
			sub->files[sub->nfiles++] = xstrdup(paths[i]);
}

/* A student whose one .cl file is `path` (the caller's, now the submission's). */
static void add_kernel_file(struct submission **out, size_t *count, char *path)
{
	char *problem = kernel_file_problem(path);
	add(out, count, student_name(path), problem ? NULL : path, problem, NULL);
	if (problem)
		free(path);
}

/* Two submissions of one name are an error in diags. */
static void same_names(const struct submission *subs, size_t count, struct diag_list *diags)
{
	for (size_t i = 0; i < count; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(subs[i].student, subs[j].student) == 0)
				diag_add(diags, DIAG_ERROR,
					 subs[i].path ? subs[i].path : subs[i].student, 0, 0,
					 "a second submission of student %s (the first is %s): "
					 "rename one",
					 subs[i].student, subs[j].path ? subs[j].path : subs[j].student);
}

int submissions_collect_each(char *const *args, size_t nargs, struct submission **out,
			     size_t *count, struct diag_list *diags)
{
	*out = NULL;
	*count = 0;
	size_t errors_before = diag_error_count(diags);
	for (size_t a = 0; a < nargs; a++) {
		if (!is_dir(args[a])) {
			if (is_kernel_file(args[a]))
				add_kernel_file(out, count, xstrdup(args[a]));
			else
				diag_add(diags, DIAG_ERROR, args[a], 0, 0,
					 "a submission is a .cl file or a folder");
			continue;
		}
		char **paths;
		long n = dir_entries(args[a], true, &paths);
		if (n < 0) {
			diag_add(diags, DIAG_ERROR, args[a], 0, 0, "cannot read the folder: %s",
				 strerror(errno));
			continue;
		}
		add_student_dir(out, count, args[a], paths, n);
		strings_free(paths, n);
	}
	same_names(*out, *count, diags);
	return diag_error_count(diags) > errors_before ? -1 : 0;
}

int submissions_collect(char *const *args, size_t nargs, struct submission **out, size_t *count,
			struct diag_list *diags)
{
	*out = NULL;
	*count = 0;
	size_t errors_before = diag_error_count(diags);
	for (size_t a = 0; a < nargs; a++) {
		const char *arg = args[a];
		if (!is_dir(arg)) {
			struct stat st;
			if (stat(arg, &st) < 0)
				diag_add(diags, DIAG_ERROR, arg, 0, 0, "cannot read it: %s",
					 strerror(errno));
			else if (!is_kernel_file(arg))
				diag_add(diags, DIAG_ERROR, arg, 0, 0,
					 "a submission is a .cl file or a folder");
			else
				add(out, count, student_name(arg), xstrdup(arg), NULL, NULL);
			continue;
		}
		char **paths;
		long n = dir_entries(arg, true, &paths);
		if (n < 0) {
			diag_add(diags, DIAG_ERROR, arg, 0, 0, "cannot read the folder: %s",
				 strerror(errno));
			continue;
		}
		/* Drop what is no submission, so that a student's clone is still one
		 * student's folder. */
		long kept = 0;
		for (long i = 0; i < n; i++) {
			if (is_dir(paths[i]) && is_hidden_metadata(paths[i]))
				free(paths[i]);
			else
				paths[kept++] = paths[i];
		}
		n = kept;
		size_t kernels = count_kernels(paths, n), dirs = 0;
		for (long i = 0; i < n; i++)
			dirs += is_dir(paths[i]);
		if (dirs == 0 && kernels <= 1) {
			add_student_dir(out, count, arg, paths, n);
		} else {
			/* A class: each .cl file and each folder is a student. */
			for (long i = 0; i < n; i++) {
				struct stat st;
				if (is_dir(paths[i]) && lstat(paths[i], &st) == 0 &&
				    S_ISLNK(st.st_mode)) {
					/* Another student's folder, or the grader's. */
					add(out, count, student_name(paths[i]), NULL,
					    xasprintf("%s is a symbolic link: submit the folder "
						      "itself",
						      paths[i]),
					    NULL);
				} else if (is_dir(paths[i])) {
					char **inner;
					long m = dir_entries(paths[i], true, &inner);
					add_student_dir(out, count, paths[i], inner, m < 0 ? 0 : m);
					strings_free(inner, m);
				} else if (is_kernel_file(paths[i])) {
					add_kernel_file(out, count, paths[i]);
					paths[i] = NULL; /* the submission keeps it */
				}
			}
		}
		strings_free(paths, n);
	}
	same_names(*out, *count, diags);
	return diag_error_count(diags) > errors_before ? -1 : 0;
}

void submissions_free(struct submission *subs, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(subs[i].student);
		free(subs[i].path);
		free(subs[i].problem);
		free(subs[i].folder);
		strings_free(subs[i].files, (long)subs[i].nfiles);
	}
	free(subs);
}
