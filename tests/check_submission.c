/* check_submission.c - which student handed in which file: files, a student's folder, a
 * class folder, and the mistakes that must not lose a student. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "check_suites.h"
#include "grade/submission.h"

static void touch(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "The test can write %s.", path);
	fclose(f);
	free(path);
}

START_TEST(test_class_folder_names_every_student)
{
	char root[] = "/tmp/check_submission_XXXXXX";
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *cls = xasprintf("%s/class", root);
	mkdir(cls, 0777);
	touch(cls, "bob.cl");
	touch(cls, "notes.txt");
	char *carol = xasprintf("%s/carol", cls), *dave = xasprintf("%s/dave", cls),
	     *erin = xasprintf("%s/erin", cls);
	mkdir(carol, 0777);
	mkdir(dave, 0777);
	mkdir(erin, 0777);
	touch(carol, "reduce.cl");
	touch(erin, "a.cl");
	touch(erin, "b.cl");

	char *args[] = { cls };
	struct submission *subs;
	size_t n;
	struct diag_list diags = { 0 };
	ck_assert_msg(submissions_collect(args, 1, &subs, &n, &diags) == 0 && n == 4,
		      "bob, carol, dave and erin are four students, not %zu.", n);
	ck_assert_msg(strcmp(subs[0].student, "bob") == 0 && subs[0].problem == NULL &&
			      strstr(subs[0].path, "class/bob.cl"),
		      "A .cl file is a student named by the file.");
	ck_assert_msg(strcmp(subs[1].student, "carol") == 0 &&
			      strstr(subs[1].path, "carol/reduce.cl"),
		      "A folder with one .cl file is a student named by the folder.");
	ck_assert_msg(strcmp(subs[2].student, "dave") == 0 && subs[2].path == NULL &&
			      strstr(subs[2].problem, "holds no .cl file"),
		      "An empty folder is a student with a problem, still graded.");
	ck_assert_msg(strcmp(subs[3].student, "erin") == 0 && subs[3].path == NULL &&
			      subs[3].nfiles == 2 && strstr(subs[3].files[0], "erin/a.cl") &&
			      strstr(subs[3].files[1], "erin/b.cl"),
		      "Two .cl files in a student's folder are one student with both files, for "
		      "the grader to choose between.");
	submissions_free(subs, n);

	/* Each argument one student's: a folder of lone .cl files is one hand-in, not a
	 * class. */
	char *each[] = { erin };
	ck_assert_msg(submissions_collect_each(each, 1, &subs, &n, &diags) == 0 && n == 1 &&
			      strcmp(subs[0].student, "erin") == 0 && subs[0].nfiles == 2,
		      "A folder given as one student's is that student, however many .cl files "
		      "it holds.");
	submissions_free(subs, n);

	char *bob = xasprintf("%s/bob.cl", cls);
	char *again[] = { cls, bob };
	ck_assert_msg(submissions_collect(again, 2, &subs, &n, &diags) < 0 &&
			      strstr(diags.items[0].message, "a second submission of student bob"),
		      "Two submissions of one student are an error.");
	submissions_free(subs, n);
	diag_list_free(&diags);

	remove_test_folder(root);
	free(bob);
	free(carol);
	free(dave);
	free(erin);
	free(cls);
}
END_TEST

/* Names starting with '.' are students too (only a hidden folder without a .cl file, a
 * clone's .git, is none); a linked .cl file is refused, since its report would quote
 * whatever file it points at. */
START_TEST(test_hidden_names_are_graded_and_links_refused)
{
	char root[] = "/tmp/check_submission_XXXXXX";
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *cls = xasprintf("%s/class", root), *dotted = xasprintf("%s/class/.frank", root),
	     *git = xasprintf("%s/class/.git", root),
	     *link = xasprintf("%s/class/mallory.cl", root);
	mkdir(cls, 0777);
	mkdir(dotted, 0777);
	mkdir(git, 0777);
	touch(cls, ".alice.cl");
	touch(cls, "bob.cl");
	touch(dotted, "reduce.cl");
	touch(git, "HEAD");
	char *other = xasprintf("%s/class/zoe", root);
	ck_assert_msg(symlink("/etc/passwd", link) == 0 && symlink(".frank", other) == 0,
		      "The test can make links.");

	char *args[] = { cls };
	struct submission *subs;
	size_t n;
	struct diag_list diags = { 0 };
	ck_assert_msg(submissions_collect(args, 1, &subs, &n, &diags) == 0 && n == 5,
		      ".alice.cl, bob.cl, .frank/, mallory.cl and zoe/ are five students, not %zu.",
		      n);
	ck_assert_msg(strcmp(subs[0].student, ".alice") == 0 && subs[0].path != NULL,
		      "A hidden .cl file is graded like any other, not %s.", subs[0].student);
	ck_assert_msg(strcmp(subs[1].student, ".frank") == 0 && subs[1].path != NULL,
		      "A hidden folder holding a .cl file is a student.");
	ck_assert_msg(strcmp(subs[3].student, "mallory") == 0 && subs[3].path == NULL &&
			      strstr(subs[3].problem, "is a symbolic link"),
		      "A linked .cl file is a problem, never read.");
	ck_assert_msg(strcmp(subs[4].student, "zoe") == 0 && subs[4].path == NULL &&
			      strstr(subs[4].problem, "is a symbolic link"),
		      "A linked folder is a problem: it could be another student's.");
	submissions_free(subs, n);
	diag_list_free(&diags);

	remove_test_folder(root);
	free(cls);
	free(dotted);
	free(git);
	free(link);
	free(other);
}
END_TEST

Suite *submission_suite(void)
{
	Suite *s = suite_create("submission");
	TCase *tc = tcase_create("submission");
	tcase_add_test(tc, test_class_folder_names_every_student);
	tcase_add_test(tc, test_hidden_names_are_graded_and_links_refused);
	suite_add_tcase(s, tc);
	return s;
}
