/* check_progcache.c - the program cache's key and entries: a header's contents change the
 * key however its directive is written, an include through a macro is never keyed, an
 * entry answers only its own key, and a damaged one answers nothing. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/progcache.h"
#include "check_suites.h"

static char *make_root(void)
{
	char *root = xstrdup("/tmp/clh-progcache-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	return root;
}

static void remove_root(char *root)
{
	remove_test_folder(root);
	free(root);
}

static void put(const char *dir, const char *name, const char *text)
{
	ck_assert_int_eq(write_text_file(dir, name, text), 0);
}

static void key_of(struct strbuf *key, const char *root, const char *source, const char *options)
{
	char *path = xasprintf("%s/k.cl", root);
	*key = (struct strbuf){ 0 };
	progcache_key(key, "pocl-cpu\nPoCL\n3.1", path, source, strlen(source), options);
	free(path);
}

static bool same(const struct strbuf *a, const struct strbuf *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

START_TEST(test_key_follows_headers_options_and_target)
{
	char *root = make_root();
	char *inc = xasprintf("%s/inc", root);
	mkdir(inc, 0755);
	put(root, "near.h", "#include \"far.h\"\n#define NEAR 1\n");
	put(inc, "far.h", "#define FAR 1\n");
	const char *source = "  #  include \"near.h\"\n#include <opencl-c-missing.h>\nkernel void k(void) {}\n";
	char *options = xasprintf("-I %s -DX=1", inc);

	struct strbuf a, b;
	key_of(&a, root, source, options);
	key_of(&b, root, source, options);
	ck_assert_msg(same(&a, &b), "The same inputs make the same key.");
	strbuf_free(&b);

	put(inc, "far.h", "#define FAR 2\n");
	key_of(&b, root, source, options);
	ck_assert_msg(!same(&a, &b), "A header two includes deep, found through -I, is in the key.");
	strbuf_free(&b);

	key_of(&b, root, source, "-DX=1");
	ck_assert_msg(!same(&a, &b), "The options are in the key.");
	strbuf_free(&b);

	char *path = xasprintf("%s/k.cl", root);
	b = (struct strbuf){ 0 };
	progcache_key(&b, "pocl-cpu\nPoCL\n3.2", path, source, strlen(source), options);
	ck_assert_msg(!same(&a, &b), "The driver version is in the key.");
	strbuf_free(&b);

	/* A header that includes itself is followed once. */
	put(root, "near.h", "#include \"near.h\"\n");
	key_of(&b, root, source, options);
	ck_assert_msg(b.len > 0 && b.len < 4096, "An include cycle ends.");
	strbuf_free(&b);

	strbuf_free(&a);
	free(path);
	free(options);
	free(inc);
	remove_root(root);
}
END_TEST

START_TEST(test_entry_answers_its_own_key_alone)
{
	char *root = make_root();
	char *dir = xasprintf("%s/deep/programs", root);
	struct strbuf key, other;
	key_of(&key, root, "kernel void k(void) {}\n", "");
	key_of(&other, root, "kernel void j(void) {}\n", "");
	size_t len = 0;
	ck_assert_ptr_null(progcache_load(dir, &key, &len, NULL));

	const unsigned char binary[] = { 0, 1, 2, 'b', 'i', 'n', 0, 255 };
	progcache_store(dir, &key, binary, sizeof binary);
	unsigned char *got = progcache_load(dir, &key, &len, NULL);
	ck_assert_ptr_nonnull(got);
	ck_assert_uint_eq(len, sizeof binary);
	ck_assert_msg(memcmp(got, binary, len) == 0, "The binary comes back byte for byte.");
	free(got);
	ck_assert_msg(progcache_load(dir, &other, &len, NULL) == NULL, "Another key finds nothing.");

	/* The entry's file cut short: a damaged entry answers nothing. */
	long count;
	char **entries;
	count = dir_entries(dir, false, &entries);
	ck_assert_int_eq(count, 1);
	struct stat st;
	ck_assert_int_eq(stat(entries[0], &st), 0);
	ck_assert_int_eq(truncate(entries[0], st.st_size - 1), 0);
	ck_assert_msg(progcache_load(dir, &key, &len, NULL) == NULL, "A cut entry is not loaded.");
	strings_free(entries, count);

	strbuf_free(&key);
	strbuf_free(&other);
	free(dir);
	remove_root(root);
}
END_TEST

/* Directives a line scanner misses but the compiler follows: each header's contents must
 * reach the key, or an edit to it would load a stale binary. */
START_TEST(test_key_follows_directives_as_the_preprocessor_reads_them)
{
	static const char *const sources[] = {
		"/* a comment first */ #include \"h.h\"\nkernel void k(void) {}\n",
		"#include \\\n  \"h.h\"\nkernel void k(void) {}\n",
		"%:include \"h.h\"\nkernel void k(void) {}\n",
		"?\?=include \"h.h\"\nkernel void k(void) {}\n",
		"#/* between */include \"h.h\"\nkernel void k(void) {}\n",
	};
	char *root = make_root();
	for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
		put(root, "h.h", "#define H 1\n");
		struct strbuf a, b;
		key_of(&a, root, sources[i], "");
		put(root, "h.h", "#define H 2\n");
		key_of(&b, root, sources[i], "");
		ck_assert_msg(!same(&a, &b), "The header of source %zu is in the key:\n%s", i,
			      sources[i]);
		strbuf_free(&a);
		strbuf_free(&b);
	}
	/* Text that only looks like a directive includes nothing. */
	put(root, "h.h", "#define H 1\n");
	struct strbuf a, b;
	const char *quiet = "// #include \"h.h\"\n/*\n#include \"h.h\"\n*/\nkernel void k(void) {}\n";
	key_of(&a, root, quiet, "");
	put(root, "h.h", "#define H 2\n");
	key_of(&b, root, quiet, "");
	ck_assert_msg(same(&a, &b), "A directive in a comment reads no file.");
	strbuf_free(&a);
	strbuf_free(&b);
	remove_root(root);
}
END_TEST

/* A file named through a macro is known only to the compiler: no key can hold it. */
START_TEST(test_macro_named_include_is_never_keyed)
{
	char *root = make_root();
	put(root, "h.h", "#define H 1\n");
	const char *plain = "#include \"h.h\"\nkernel void k(void) {}\n";
	const char *macro = "#define HEADER \"h.h\"\n#include HEADER\nkernel void k(void) {}\n";
	char *path = xasprintf("%s/k.cl", root);
	struct strbuf key = { 0 };
	ck_assert(progcache_key(&key, "t", path, plain, strlen(plain), ""));
	strbuf_free(&key);
	key = (struct strbuf){ 0 };
	ck_assert_msg(!progcache_key(&key, "t", path, macro, strlen(macro), ""),
		      "A program including through a macro must be built, not cached.");
	strbuf_free(&key);
	free(path);
	remove_root(root);
}
END_TEST

/* A mark says the program was met, holds no binary, and gives way to the binary later. */
START_TEST(test_mark_then_binary)
{
	char *root = make_root();
	struct strbuf key, other;
	key_of(&key, root, "kernel void k(void) {}\n", "");
	key_of(&other, root, "kernel void j(void) {}\n", "");
	size_t len = 0;
	bool seen = true;
	ck_assert_ptr_null(progcache_load(root, &key, &len, &seen));
	ck_assert_msg(!seen, "An empty folder has met nothing.");
	progcache_mark(root, &key);
	ck_assert_ptr_null(progcache_load(root, &key, &len, &seen));
	ck_assert_msg(seen, "A mark says the program was met.");
	ck_assert_ptr_null(progcache_load(root, &other, &len, &seen));
	ck_assert_msg(!seen, "Another key's program was not met.");
	const unsigned char binary[] = { 7, 0, 7 };
	progcache_store(root, &key, binary, sizeof binary);
	unsigned char *got = progcache_load(root, &key, &len, &seen);
	ck_assert_ptr_nonnull(got);
	ck_assert_msg(seen && len == sizeof binary && memcmp(got, binary, len) == 0,
		      "The binary replaces the mark.");
	free(got);
	strbuf_free(&key);
	strbuf_free(&other);
	remove_root(root);
}
END_TEST

START_TEST(test_folder_from_the_environment)
{
	setenv("CLHARNESS_CACHE_DIR", "off", 1);
	ck_assert_ptr_null(progcache_dir());
	setenv("CLHARNESS_CACHE_DIR", "/somewhere", 1);
	char *dir = progcache_dir();
	ck_assert_str_eq(dir, "/somewhere");
	free(dir);
	unsetenv("CLHARNESS_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/x", 1);
	dir = progcache_dir();
	ck_assert_str_eq(dir, "/x/clharness/programs");
	free(dir);
}
END_TEST

Suite *progcache_suite(void)
{
	Suite *s = suite_create("progcache");
	TCase *tc = tcase_create("progcache");
	tcase_add_test(tc, test_key_follows_headers_options_and_target);
	tcase_add_test(tc, test_key_follows_directives_as_the_preprocessor_reads_them);
	tcase_add_test(tc, test_macro_named_include_is_never_keyed);
	tcase_add_test(tc, test_entry_answers_its_own_key_alone);
	tcase_add_test(tc, test_mark_then_binary);
	tcase_add_test(tc, test_folder_from_the_environment);
	suite_add_tcase(s, tc);
	return s;
}
