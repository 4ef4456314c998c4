/* check_walk.c - finding case files: links that loop or alias, and what is no regular
 * file, each met once and never waited on. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "base/walk.h"
#include "check_suites.h"

static bool is_yaml(const char *name)
{
	return has_suffix(name, ".yaml");
}

static void make_file(const char *path)
{
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "The test can write %s.", path);
	fclose(f);
}

START_TEST(test_links_loop_and_alias_without_repeats)
{
	char root[] = "/tmp/check_walk_XXXXXX";
	ck_assert_msg(mkdtemp(root) != NULL, "The test can make a folder.");
	char *sub = xasprintf("%s/sub", root), *a = xasprintf("%s/sub/a.yaml", root),
	     *fifo = xasprintf("%s/sub/fifo.yaml", root), *up = xasprintf("%s/sub/up", root),
	     *up2 = xasprintf("%s/sub/up2", root), *alias = xasprintf("%s/alias.yaml", root),
	     *dangling = xasprintf("%s/gone.yaml", root);
	mkdir(sub, 0777);
	make_file(a);
	ck_assert_msg(mkfifo(fifo, 0666) == 0, "The test can make a FIFO.");
	/* Two links back to the root: each alone loops for ever if followed. */
	ck_assert_msg(symlink("..", up) == 0 && symlink("..", up2) == 0 &&
			      symlink("sub/a.yaml", alias) == 0 &&
			      symlink("nowhere.yaml", dangling) == 0,
		      "The test can make links.");

	struct walk w = { 0 };
	struct diag_list diags = { 0 };
	ck_assert_msg(walk_add(&w, root, is_yaml, &diags) == 0, "The folder can be read.");
	ck_assert_msg(w.count == 1, "a.yaml, reached three ways, is found once, not %zu times.",
		      w.count);
	ck_assert_msg(walk_add(&w, a, is_yaml, &diags) == 0 && w.count == 1,
		      "Naming a file already found does not add it again.");
	ck_assert_msg(walk_met(&w, a) && walk_met(&w, sub) && walk_met(&w, root),
		      "The walk has met the file, the folder it entered and the one named.");
	bool fifo_warned = false, dangling_warned = false;
	for (size_t i = 0; i < diags.count; i++) {
		fifo_warned |= strcmp(diags.items[i].file, fifo) == 0 &&
			       strstr(diags.items[i].message, "not a regular file") != NULL;
		dangling_warned |= strcmp(diags.items[i].file, dangling) == 0;
	}
	ck_assert_msg(fifo_warned, "The FIFO is skipped with a warning, not opened.");
	ck_assert_msg(dangling_warned, "A dangling link that looks like a case is warned about.");
	ck_assert_msg(diag_error_count(&diags) == 0, "Skipping is a warning, not an error.");
	walk_free(&w);
	diag_list_free(&diags);

	/* An empty folder: nothing found, and no sort of a NULL list (UBSan's complaint). */
	char *empty = xasprintf("%s/sub/empty", root);
	mkdir(empty, 0777);
	struct walk none = { 0 };
	ck_assert_msg(!walk_met(&none, empty), "A folder not yet walked is not met.");
	ck_assert_msg(walk_add(&none, empty, is_yaml, &diags) == 0 && none.count == 0,
		      "An empty folder holds no case.");
	ck_assert_msg(walk_met(&none, empty) && !walk_met(&none, root),
		      "The empty folder is met once walked; the folder above it is not.");
	walk_free(&none);
	free(empty);

	char *missing = xasprintf("%s/missing", root);
	ck_assert_msg(walk_add(&w, missing, is_yaml, &diags) < 0,
		      "A path that does not exist is an error for the caller to report.");
	walk_free(&w);

	remove_test_folder(root);
	free(missing);
	free(sub);
	free(a);
	free(fifo);
	free(up);
	free(up2);
	free(alias);
	free(dangling);
}
END_TEST

Suite *walk_suite(void)
{
	Suite *s = suite_create("walk");
	TCase *tc = tcase_create("walk");
	tcase_add_test(tc, test_links_loop_and_alias_without_repeats);
	suite_add_tcase(s, tc);
	return s;
}
