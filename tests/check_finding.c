/* check_finding.c - folding Oclgrind's messages into findings: one per kind, memory
 * space and pair of lines, in the kernel's own file, with counts and examples; and the
 * words and normal forms reports and goldens use. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "findings/finding.h"

static const char *kernel_file(void *ctx, const char *kernel)
{
	return ctx;
}

struct folding {
	struct finding_list *list;
	const char *file;
};

static void fold(void *ctx, const struct oglog_message *m)
{
	struct folding *f = ctx;
	finding_list_add(f->list, m, kernel_file, (void *)f->file);
}

/* The findings of tests/data/oclgrind/NAME, placed in `file`. */
static struct finding_list findings_of(const char *name, const char *file)
{
	char *relative = xasprintf("oclgrind/%s", name);
	char *path = test_data_path(relative);
	size_t len;
	char *text = read_file(path, &len);
	ck_assert_msg(text != NULL, "The captured log %s can be read.", path);
	struct finding_list list = { 0 };
	struct folding folding = { &list, file };
	oglog_parse(text, fold, &folding);
	finding_list_sort(&list);
	free(text);
	free(path);
	free(relative);
	return list;
}

static char *normal(const struct finding *f)
{
	struct strbuf sb = { 0 };
	finding_normal(&sb, f);
	return strbuf_take(&sb);
}

static unsigned long total(const struct finding_list *list)
{
	unsigned long n = 0;
	for (size_t i = 0; i < list->count; i++)
		n += list->items[i].count;
	return n;
}

START_TEST(test_hundreds_of_messages_fold_into_few)
{
	struct finding_list list = findings_of("race_local_rw.log", "kernels/reduce/x.cl");
	ck_assert_msg(total(&list) == 120, "Every message is counted once, not %lu times.",
		      total(&list));
	ck_assert_msg(list.count <= 3, "120 messages of one bug fold into a few findings, not %zu.",
		      list.count);
	const struct finding *f = &list.items[0];
	ck_assert_str_eq(f->file, "kernels/reduce/x.cl");
	ck_assert_msg(f->at.line == 14 && f->at.col == 17 && f->at.access == 'w',
		      "The finding stands at the write, 14:17, not %d:%d.", f->at.line, f->at.col);
	ck_assert_msg(f->other.line == 14 && f->other.col == 20 && f->other.access == 'r',
		      "The conflicting read is at 14:20.");
	char *n = normal(f);
	ck_assert_str_eq(n, "error race read-write local 14 14");
	free(n);
	finding_list_free(&list);
}
END_TEST

START_TEST(test_write_first_whatever_the_order)
{
	/* Oclgrind names the load first in one message and the store first in the other. */
	struct finding_list list = findings_of("race_global_rw.log", "k.cl");
	ck_assert_msg(list.count == 1 && list.items[0].count == 2,
		      "Both group edges fold into one finding, counted twice.");
	const struct finding *f = &list.items[0];
	ck_assert_msg(f->at.line == 16 && f->at.access == 'w' && f->other.line == 18,
		      "The write at 16 comes first, the read at 18 second; found %d and %d.",
		      f->at.line, f->other.line);
	ck_assert_msg(f->nexample == 2 && f->example[0].is_item && f->example[0].global[0] == 0 &&
			      f->example[1].global[0] == 63,
		      "The example's work-items follow the swap: 0 wrote, 63 read.");
	finding_list_free(&list);
}
END_TEST

START_TEST(test_any_checker_folds_into_the_simulators_finding)
{
	/* The simulator's message, then the same race as a shadow reader sees it: the read
	 * first, its own strings. */
	struct finding_list list = findings_of("race_global_rw.log", "k.cl");
	char *space = xstrdup("global"), *what = xstrdup("read-write");
	struct finding_event e = {
		.kind = FINDING_RACE,
		.severity = DIAG_ERROR,
		.what = what,
		.space = space,
		.kernel = list.items[0].kernel,
		.file = "k.cl",
		.at = { .line = 18, .col = list.items[0].other.col, .access = 'r' },
		.other = { .line = 16, .col = list.items[0].at.col, .access = 'w' },
		.nexample = 2,
		.example = { { .is_item = true, .global = { 5 } }, { .is_item = true } },
	};
	finding_list_note(&list, &e);
	ck_assert_msg(list.count == 1 && list.items[0].count == 3,
		      "The same race, whichever checker saw it, is one finding counted three times "
		      "(%zu findings).",
		      list.count);
	e.at.line = 17;
	finding_list_note(&list, &e);
	ck_assert_msg(list.count == 2 && list.items[1].at.line == 16 &&
			      list.items[1].at.access == 'w' && list.items[1].example[0].global[0] == 0,
		      "Another pair of lines is a finding of its own, the write first, the example's "
		      "items swapped with it.");
	free(space);
	free(what);
	ck_assert_msg(list.items[1].space && strcmp(list.items[1].space, "global") == 0,
		      "A new finding keeps copies of the event's strings.");
	finding_list_free(&list);
}
END_TEST

START_TEST(test_headline_and_note)
{
	struct finding_list list = findings_of("race_global_rw.log", "k.cl");
	struct strbuf head = { 0 }, note = { 0 };
	finding_headline(&head, &list.items[0]);
	finding_note(&note, &list.items[0]);
	ck_assert_str_eq(head.data, "read-write data race on global memory: this write conflicts "
				    "with a read at line 18 (2 times, kernel "
				    "shift_after_global_barrier)");
	ck_assert_str_eq(
		note.data,
		"the conflicting read: e.g. work-item global (63,0,0) local (31,0,0) group "
		"(1,0,0) made it while global (0,0,0) local (0,0,0) group (0,0,0) made the "
		"write at line 16:8");
	strbuf_free(&head);
	strbuf_free(&note);
	finding_list_free(&list);
}
END_TEST

START_TEST(test_divergence_between_two_barriers)
{
	struct finding_list list = findings_of("divergence_two_barriers.log", "k.cl");
	ck_assert_msg(list.count == 1, "One divergence, whichever barrier each group met first.");
	char *n = normal(&list.items[0]);
	ck_assert_str_eq(n, "error barrier-divergence barrier 37 39");
	free(n);
	finding_list_free(&list);
}
END_TEST

START_TEST(test_divergence_at_one_barrier)
{
	struct finding_list list = findings_of("divergence_barrier.log", "k.cl");
	ck_assert_msg(list.count == 1 && list.items[0].count == 2,
		      "Both work-groups' divergence fold into one finding.");
	struct strbuf head = { 0 };
	finding_headline(&head, &list.items[0]);
	ck_assert_str_eq(head.data, "work-group divergence at this barrier: only 16 out of 32 "
				    "work-items executed barrier (2 times, kernel half_barrier)");
	strbuf_free(&head);
	finding_list_free(&list);
}
END_TEST

START_TEST(test_out_of_bounds_and_uninitialized)
{
	struct finding_list list = findings_of("private_index.log", "k.cl");
	ck_assert_msg(list.count == 3, "Invalid read, index and uninitialised write: %zu findings.",
		      list.count);
	struct strbuf all = { 0 };
	for (size_t i = 0; i < list.count; i++) {
		finding_normal(&all, &list.items[i]);
		strbuf_puts(&all, "\n");
	}
	ck_assert_str_eq(all.data, "error out-of-bounds index private 57\n"
				   "error out-of-bounds read private 57\n"
				   "error uninitialized value-written global 57\n");
	strbuf_free(&all);
	finding_list_free(&list);
}
END_TEST

/* The diagnostics of logs_sync.cl: each a finding of its own kind, at its own line. */
START_TEST(test_sync_and_access_diagnostics_have_their_kinds)
{
	char *source = test_data_path("oclgrind/logs_sync.cl");
	static const struct {
		const char *log, *line;
	} want[] = {
		{ "divergence_fence_flags.log", "error barrier-divergence fence-flags 16" },
		{ "events_not_waited.log", "error async-copy not-waited-for 23" },
		{ "unaligned_read.log", "error out-of-bounds unaligned-read global 28" },
		/* The group's copy, which Oclgrind places nowhere, is at line 34. */
		{ "async_copy_race.log", "error race write-write local 33 34" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct finding_list list = findings_of(want[i].log, source);
		ck_assert_msg(list.count == 1, "%s folds into one finding, not %zu.", want[i].log,
			      list.count);
		char *n = normal(&list.items[0]);
		ck_assert_msg(strcmp(n, want[i].line) == 0, "%s is '%s', not '%s'.", want[i].log,
			      want[i].line, n);
		struct strbuf head = { 0 };
		finding_headline(&head, &list.items[0]);
		ck_assert_msg(strstr(head.data, "Oclgrind:") == NULL,
			      "No message of %s is left as Oclgrind's own words: %s", want[i].log,
			      head.data);
		strbuf_free(&head);
		free(n);
		finding_list_free(&list);
	}
	struct finding_list list = findings_of("divergence_fence_flags.log", source);
	struct strbuf head = { 0 };
	finding_headline(&head, &list.items[0]);
	ck_assert_msg(strstr(head.data, "different fence flags, CLK_LOCAL_MEM_FENCE by some "
					"work-items, CLK_GLOBAL_MEM_FENCE by the others"),
		      "The flags of each side are named: %s", head.data);
	strbuf_free(&head);
	finding_list_free(&list);
	free(source);
}
END_TEST

/* Oclgrind's cap met: what came after it was never checked, an error of its own. */
START_TEST(test_reaching_the_cap_is_an_error)
{
	struct finding_list list = findings_of("uninit_suppressed.log", "k.cl");
	ck_assert_msg(list.count == 2, "The uninitialised use and the truncation.");
	const struct finding *cut = NULL;
	for (size_t i = 0; i < list.count; i++)
		if (list.items[i].kind == FINDING_TRUNCATED)
			cut = &list.items[i];
	ck_assert_msg(cut && cut->severity == DIAG_ERROR,
		      "The truncation is an error: the rest of the run is unchecked.");
	struct strbuf head = { 0 };
	finding_headline(&head, cut);
	ck_assert_msg(strstr(head.data, "stopped reporting after 3 diagnostics, so this run is "
					"incomplete") != NULL,
		      "The error says where Oclgrind stopped: %s", head.data);
	strbuf_free(&head);
	finding_list_free(&list);
}
END_TEST

START_TEST(test_api_errors_keep_their_text)
{
	struct finding_list list = findings_of("api_error.stderr", NULL);
	ck_assert_msg(list.count == 2, "Two different API errors stay two findings.");
	char *n = normal(&list.items[0]);
	ck_assert_str_eq(n, "error api-error: CL_INVALID_ARG_SIZE in clSetKernelArg: arg_size is "
			    "3, but argument should be 8 bytes");
	free(n);
	finding_list_free(&list);
}
END_TEST

/* Another checker's report of one race: the pair's lines may come the other way round
 * (which access it met second follows the order work-items ran), and that is the same
 * place; another line, kind or memory space is not. */
START_TEST(test_same_place_whichever_line_comes_first)
{
	struct finding a = { .kind = FINDING_RACE,
			     .what = "read-write",
			     .space = "local",
			     .file = "k.cl",
			     .at = { .line = 14 },
			     .other = { .line = 12 } };
	struct finding b = a;
	b.at.line = 12;
	b.other.line = 14;
	ck_assert_msg(finding_same_place(&a, &b) && !finding_same(&a, &b),
		      "The pair reported the other way round is the same place, not the same "
		      "diagnostic.");
	b.other.line = 9;
	ck_assert_msg(!finding_same_place(&a, &b), "A pair without line 14 is another race.");
	b = a;
	b.space = "global";
	ck_assert_msg(!finding_same_place(&a, &b), "Global memory is another race.");
	b = a;
	b.kind = FINDING_OUT_OF_BOUNDS;
	ck_assert_msg(!finding_same_place(&a, &b), "An out-of-bounds access is another finding.");
}
END_TEST

START_TEST(test_merge_adds_counts)
{
	struct finding_list a = findings_of("race_global_rw.log", "k.cl");
	struct finding_list b = findings_of("race_global_rw.log", "k.cl");
	struct finding_list c = findings_of("oob_global_read.log", "k.cl");
	finding_list_merge(&a, &b);
	ck_assert_msg(a.count == 1 && a.items[0].count == 4, "Equal findings add their counts.");
	finding_list_merge(&a, &c);
	ck_assert_msg(a.count == 3, "Different findings are appended.");
	struct finding_list zeros = findings_of("race_global_rw.log", "k.cl");
	struct finding_list repeats = findings_of("race_global_rw.log", "k.cl");
	zeros.items[0].input_set = xstrdup("zeros");
	repeats.items[0].input_set = xstrdup("repeats");
	struct finding_list sets = { 0 };
	finding_list_merge(&sets, &zeros);
	finding_list_merge(&sets, &repeats);
	finding_list_merge(&sets, &zeros);
	ck_assert_str_eq(sets.items[0].input_set, "zeros, repeats");
	finding_list_free(&sets);
	finding_list_free(&zeros);
	finding_list_free(&repeats);
	ck_assert_msg(finding_list_has_errors(&a), "Races are errors.");
	finding_list_free(&a);
	finding_list_free(&b);
	finding_list_free(&c);
}
END_TEST

/* A finding made by hand: kind, lines and accesses, in kernel k of k.cl. */
static struct finding made(enum finding_kind kind, int line, char access, int other,
			   char other_access)
{
	return (struct finding){ .kind = kind,
				 .severity = DIAG_ERROR,
				 .kernel = "k",
				 .file = "k.cl",
				 .at = { line, 1, access },
				 .other = { other, 1, other_access } };
}

START_TEST(test_uninitialised_value_follows_from_its_cause)
{
	/* A transpose without its barrier: the race's read at line 15 is where the value
	 * no write had filled yet is used, and an undefined value copied on at line 17. */
	struct finding items[] = {
		made(FINDING_RACE, 10, 'w', 15, 'r'),
		made(FINDING_UNINITIALIZED, 15, 'w', 0, 0),
		made(FINDING_UNINITIALIZED, 17, 'w', 0, 0),
	};
	struct finding_list list = { items, 3 };
	ck_assert_msg(finding_cause(&list, &items[1]) == &items[0],
		      "An uninitialised value used where a race reads follows from the race.");
	ck_assert_msg(finding_cause(&list, &items[2]) == &items[0],
		      "An undefined value carried on in the same kernel follows from the race.");
	ck_assert_msg(finding_cause(&list, &items[0]) == NULL, "A race is a mistake of its own.");

	/* An uninitialised read beside a race in another kernel: its own. */
	struct finding apart[] = {
		made(FINDING_RACE, 10, 'w', 15, 'r'),
		made(FINDING_UNINITIALIZED, 22, 'w', 0, 0),
	};
	apart[1].kernel = "other";
	struct finding_list alone = { apart, 2 };
	ck_assert_msg(finding_cause(&alone, &apart[1]) == NULL,
		      "An uninitialised value in another kernel is a mistake of its own.");

	/* Read past a buffer's end at line 8: the value it yields is no one's. */
	struct finding oob[] = {
		made(FINDING_OUT_OF_BOUNDS, 8, 'r', 0, 0),
		made(FINDING_UNINITIALIZED, 8, 'w', 0, 0),
		made(FINDING_OUT_OF_BOUNDS, 30, 'w', 0, 0),
		made(FINDING_UNINITIALIZED, 30, 'w', 0, 0),
	};
	oob[2].kernel = oob[3].kernel = "writer";
	struct finding_list past = { oob, 4 };
	ck_assert_msg(finding_cause(&past, &oob[1]) == &oob[0],
		      "An out-of-bounds read's value follows from it.");
	ck_assert_msg(finding_cause(&past, &oob[3]) == NULL,
		      "An out-of-bounds write leaves no value a read at its line used.");
}
END_TEST

Suite *finding_suite(void)
{
	Suite *s = suite_create("finding");
	TCase *tc = tcase_create("fold");
	tcase_add_test(tc, test_hundreds_of_messages_fold_into_few);
	tcase_add_test(tc, test_write_first_whatever_the_order);
	tcase_add_test(tc, test_any_checker_folds_into_the_simulators_finding);
	tcase_add_test(tc, test_headline_and_note);
	tcase_add_test(tc, test_uninitialised_value_follows_from_its_cause);
	tcase_add_test(tc, test_divergence_between_two_barriers);
	tcase_add_test(tc, test_divergence_at_one_barrier);
	tcase_add_test(tc, test_out_of_bounds_and_uninitialized);
	tcase_add_test(tc, test_reaching_the_cap_is_an_error);
	tcase_add_test(tc, test_sync_and_access_diagnostics_have_their_kinds);
	tcase_add_test(tc, test_api_errors_keep_their_text);
	tcase_add_test(tc, test_merge_adds_counts);
	tcase_add_test(tc, test_same_place_whichever_line_comes_first);
	suite_add_tcase(s, tc);
	return s;
}
