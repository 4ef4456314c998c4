/* check_includes.c - a submission includes only its own folder's files, however the
 * directive is spelt, and a directive the compiler would not see is no directive. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "check_suites.h"
#include "grade/includes.h"

/* A fresh folder under /tmp holding `student/` and a classmate's `other/`. */
static char *make_class(void)
{
	char *root = xstrdup("/tmp/check_includes_XXXXXX");
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *student = xasprintf("%s/student", root), *other = xasprintf("%s/other", root);
	mkdir(student, 0777);
	mkdir(other, 0777);
	free(student);
	free(other);
	return root;
}

static char *write_in(const char *root, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", root, name);
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "The test can write %s.", path);
	fputs(text, f);
	fclose(f);
	return path;
}

/* includes_check of `text` as student/k.cl (folder: student/, or none when lone). Returns
 * its status; *said: the first diagnostic's message, or NULL. */
static int check_text(const char *root, const char *text, bool lone, char **said, int *line,
		      int *col)
{
	char *path = write_in(root, "student/k.cl", text);
	char *folder = xasprintf("%s/student", root);
	struct diag_list diags = { 0 };
	int status = includes_check(path, lone ? NULL : folder, &diags, NULL, NULL);
	*said = diags.count ? xstrdup(diags.items[0].message) : NULL;
	*line = diags.count ? diags.items[0].line : 0;
	*col = diags.count ? diags.items[0].col : 0;
	diag_list_free(&diags);
	free(folder);
	free(path);
	return status;
}

START_TEST(test_own_files_are_included_and_followed)
{
	char *root = make_class();
	free(write_in(root, "student/a.h", "#include \"sub/b.h\"\n"));
	char *sub = xasprintf("%s/student/sub", root);
	mkdir(sub, 0777);
	free(write_in(root, "student/sub/b.h", "#include \"../a.h\" /* a loop, ended */\n"));
	char *said;
	int line, col;
	ck_assert_msg(check_text(root, "#include \"a.h\"\nkernel void k() {}\n", false, &said,
				 &line, &col) == 0,
		      "Files of the student's own folder, and theirs in turn, may be included "
		      "(%s).",
		      said ? said : "");
	/* What it reaches, for the check of native code: each file once, the loop ended. */
	char *kernel = xasprintf("%s/student/k.cl", root), *folder = xasprintf("%s/student", root);
	struct diag_list diags = { 0 };
	char **files;
	size_t nfiles;
	ck_assert_msg(includes_check(kernel, folder, &diags, &files, &nfiles) == 0 &&
			      nfiles == 3 && strcmp(files[0], kernel) == 0 &&
			      has_suffix(files[1], "/student/a.h") &&
			      has_suffix(files[2], "/student/sub/b.h"),
		      "The kernel, then each file it reaches once, are listed (%zu files).",
		      nfiles);
	strings_free(files, (long)nfiles);
	diag_list_free(&diags);
	free(kernel);
	free(folder);
	free(sub);
	remove_test_folder(root);
	free(root);
}
END_TEST

START_TEST(test_every_way_out_is_refused_at_its_line)
{
	char *root = make_class();
	free(write_in(root, "other/theirs.cl", "kernel void k() {}\n"));
	free(write_in(root, "student/nested.h", "\n#include \"../other/theirs.cl\"\n"));
	char *link = xasprintf("%s/student/link.h", root);
	char *target = xasprintf("%s/other/theirs.cl", root);
	ck_assert_msg(symlink(target, link) == 0, "The test can make a link.");
	static const struct {
		const char *text;
		int line, col;
		const char *says;
	} ways[] = {
		{ "#include \"/etc/passwd\"\n", 1, 1, "reaches outside" },
		{ "\n  #  include \"../other/theirs.cl\"\n", 2, 3, "reaches outside" },
		{ "#include \"link.h\"\n", 1, 1, "reaches outside" },
		{ "#include \"nested.h\"\n", 2, 1, "reaches outside" },
		{ "#include <stdio.h>\n", 1, 1, "angle brackets" },
		{ "#define F \"/etc/passwd\"\n#include F\n", 2, 1, "through a macro" },
		{ "/* c */ # /* c */ inc\\\nlude \"/etc/passwd\"\n", 1, 9, "reaches outside" },
		{ "%:include \"/etc/passwd\"\n", 1, 1, "reaches outside" },
		{ "?\?=include \"/etc/passwd\"\n", 1, 1, "reaches outside" },
		{ "#embed \"/etc/passwd\"\n", 1, 1, "reaches outside" },
		{ "#include_next \"/etc/passwd\"\n", 1, 1, "reaches outside" },
		{ "#include \"missing.h\"\n", 1, 1, "names no file there" },
	};
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		char *said;
		int line, col;
		int status = check_text(root, ways[i].text, false, &said, &line, &col);
		ck_assert_msg(status < 0 && said && strstr(said, ways[i].says),
			      "Way %zu out is refused saying '%s', not '%s'.", i, ways[i].says,
			      said ? said : "nothing");
		if (i != 3)
			ck_assert_msg(line == ways[i].line && col == ways[i].col,
				      "Way %zu is refused at %d:%d, its '#', not %d:%d.", i,
				      ways[i].line, ways[i].col, line, col);
		free(said);
	}
	free(link);
	free(target);
	remove_test_folder(root);
	free(root);
}
END_TEST

START_TEST(test_a_lone_file_includes_nothing_and_text_is_no_directive)
{
	char *root = make_class();
	free(write_in(root, "student/a.h", "\n"));
	char *said;
	int line, col;
	ck_assert_msg(check_text(root, "#include \"a.h\"\n", true, &said, &line, &col) < 0 &&
			      strstr(said, "lone .cl file may include nothing"),
		      "A lone file's neighbours are others' files: it includes none.");
	free(said);
	ck_assert_msg(check_text(root,
				 "// #include \"/etc/passwd\"\n/* #include \"/etc/passwd\" */\n"
				 "constant char *s = \"#include \\\"/etc/passwd\\\"\";\n"
				 "kernel void k() { int a = 1; # if 0\n}\n",
				 true, &said, &line, &col) == 0,
		      "Directives in comments and strings, or not at a line's start, are none "
		      "(%s).",
		      said ? said : "");
	free(said);
	remove_test_folder(root);
	free(root);
}
END_TEST

START_TEST(test_a_linked_kernel_file_is_refused)
{
	char *root = make_class();
	char *theirs = write_in(root, "other/theirs.cl", "kernel void k() {}\n");
	char *mine = xasprintf("%s/student/k.cl", root);
	ck_assert_msg(symlink(theirs, mine) == 0, "The test can make a link.");
	struct diag_list diags = { 0 };
	ck_assert_msg(includes_check(mine, NULL, &diags, NULL, NULL) < 0 &&
			      strstr(diags.items[0].message, "symbolic link"),
		      "A kernel file that is a link may be anyone's: it is refused.");
	diag_list_free(&diags);
	free(theirs);
	free(mine);
	remove_test_folder(root);
	free(root);
}
END_TEST

Suite *includes_suite(void)
{
	Suite *s = suite_create("includes");
	TCase *tc = tcase_create("includes");
	tcase_add_test(tc, test_own_files_are_included_and_followed);
	tcase_add_test(tc, test_every_way_out_is_refused_at_its_line);
	tcase_add_test(tc, test_a_lone_file_includes_nothing_and_text_is_no_directive);
	tcase_add_test(tc, test_a_linked_kernel_file_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
