/* submission.c - finds each student's kernel file. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "submission.h"
#include "util.h"

static bool is_kernel_file(const char *name)
{
	size_t len = strlen(name);
	return len > 3 && strcmp(name + len - 3, ".cl") == 0;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible entries of `dir`, sorted; -1 when it cannot be read. */
static long list_dir(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return -1;
	size_t n = 0;
	*names = NULL;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		*names = xreallocarray(*names, n + 1, sizeof **names);
		(*names)[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(*names, n, sizeof **names, compare_names);
	return (long)n;
}

static void free_names(char **names, long n)
{
	for (long i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static char *join(const char *dir, const char *name)
{
	size_t len = strlen(dir);
	return xasprintf("%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
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

static void add(struct submission **out, size_t *count, char *student, char *path, char *problem)
{
	*out = xreallocarray(*out, *count + 1, sizeof **out);
	(*out)[(*count)++] = (struct submission){ student, path, problem };
}

/* One student's folder: its one .cl file. */
static void add_student_dir(struct submission **out, size_t *count, const char *dir, char **names,
			    long n)
{
	char *found = NULL;
	size_t kernels = 0;
	for (long i = 0; i < n; i++)
		if (is_kernel_file(names[i])) {
			kernels++;
			if (found == NULL)
				found = join(dir, names[i]);
		}
	char *problem = NULL;
	if (kernels == 0)
		problem = xasprintf("%s holds no .cl file", dir);
	else if (kernels > 1)
		problem = xasprintf("%s holds %zu .cl files; a submission is one .cl file", dir,
				    kernels);
	if (problem) {
		free(found);
		found = NULL;
	}
	add(out, count, student_name(dir), found, problem);
}

int submissions_collect(char *const *args, size_t nargs, struct submission **out, size_t *count,
			struct diag_list *diags)
{
	*out = NULL;
	*count = 0;
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
				add(out, count, student_name(arg), xstrdup(arg), NULL);
			continue;
		}
		char **names;
		long n = list_dir(arg, &names);
		if (n < 0) {
			diag_add(diags, DIAG_ERROR, arg, 0, 0, "cannot read the folder: %s",
				 strerror(errno));
			continue;
		}
		size_t kernels = 0, dirs = 0;
		for (long i = 0; i < n; i++) {
			char *path = join(arg, names[i]);
			kernels += is_kernel_file(names[i]);
			dirs += is_dir(path);
			free(path);
		}
		if (dirs == 0 && kernels <= 1) {
			add_student_dir(out, count, arg, names, n);
		} else {
			/* A class: each .cl file and each folder is a student. */
			for (long i = 0; i < n; i++) {
				char *path = join(arg, names[i]);
				if (is_dir(path)) {
					char **inner;
					long m = list_dir(path, &inner);
					add_student_dir(out, count, path, inner, m < 0 ? 0 : m);
					free_names(inner, m);
				} else if (is_kernel_file(names[i])) {
					add(out, count, student_name(path), path, NULL);
					continue; /* the submission keeps path */
				}
				free(path);
			}
		}
		free_names(names, n);
	}
	size_t before = diag_error_count(diags);
	for (size_t i = 0; i < *count; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp((*out)[i].student, (*out)[j].student) == 0)
				diag_add(
					diags, DIAG_ERROR,
					(*out)[i].path ? (*out)[i].path : (*out)[i].student, 0, 0,
					"a second submission of student %s (the first is %s): rename "
					"one",
					(*out)[i].student,
					(*out)[j].path ? (*out)[j].path : (*out)[j].student);
	return diag_error_count(diags) > 0 || before > 0 ? -1 : 0;
}

void submissions_free(struct submission *subs, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free(subs[i].student);
		free(subs[i].path);
		free(subs[i].problem);
	}
	free(subs);
}
