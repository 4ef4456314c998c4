/* check_oglog.c - the Oclgrind log parser, on logs captured from real Oclgrind 21.10 runs
 * of the kernels in tests/data/oclgrind/logs.cl. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "check_suites.h"
#include "findings/oglog.h"

/* What a test looks at: how many messages of each kind, and a deep copy of one. */
struct seen {
	size_t count;
	size_t per_kind[OGLOG_OTHER + 1];
	size_t keep; /* which message to copy, by its index */
	struct oglog_message kept;
	struct oglog_location kept_locations[2];
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void collect(void *ctx, const struct oglog_message *m)
{
	struct seen *seen = ctx;
	if (seen->count == seen->keep) {
		seen->kept = *m;
		seen->kept.headline = dup_or_null(m->headline);
		seen->kept.kernel = dup_or_null(m->kernel);
		seen->kept.what = dup_or_null(m->what);
		seen->kept.space = dup_or_null(m->space);
		seen->kept.info = dup_or_null(m->info);
		seen->kept.function = dup_or_null(m->function);
		seen->kept.error = dup_or_null(m->error);
		for (size_t i = 0; i < m->nlocations; i++) {
			seen->kept.locations[i] = m->locations[i];
			seen->kept.locations[i].file = dup_or_null(m->locations[i].file);
			seen->kept.locations[i].source = dup_or_null(m->locations[i].source);
			seen->kept.locations[i].instruction =
				dup_or_null(m->locations[i].instruction);
		}
	}
	seen->per_kind[m->kind]++;
	seen->count++;
}

/* The messages parse_log kept in the running test, freed after it (free_kept). */
static struct oglog_message kept[4];
static size_t nkept;

static void free_kept(void)
{
	for (size_t k = 0; k < nkept; k++)
		oglog_message_release(&kept[k]);
	nkept = 0;
}

/* Parses tests/data/oclgrind/NAME, keeping message `keep` until the test ends. */
static struct seen parse_log(const char *name, size_t keep)
{
	char *relative = xasprintf("oclgrind/%s", name);
	char *path = test_data_path(relative);
	size_t len;
	char *text = read_file(path, &len);
	ck_assert_msg(text != NULL, "The captured log %s can be read.", path);
	struct seen seen = { .keep = keep };
	size_t n = oglog_parse(text, collect, &seen);
	ck_assert_msg(n == seen.count, "oglog_parse returns the number of messages it passed on.");
	if (seen.count > keep && nkept < sizeof kept / sizeof kept[0])
		kept[nkept++] = seen.kept;
	free(text);
	free(path);
	free(relative);
	return seen;
}

static void assert_item(const struct entity *e, long global, long local, long group)
{
	ck_assert_msg(e->is_item, "The entity is a work-item.");
	ck_assert_msg(e->global[0] == global && e->global[1] == 0 && e->global[2] == 0,
		      "The work-item's global id is (%ld,0,0), not (%ld,%ld,%ld).", global,
		      e->global[0], e->global[1], e->global[2]);
	ck_assert_msg(e->local[0] == local, "The work-item's local id is (%ld,0,0), not %ld.",
		      local, e->local[0]);
	ck_assert_msg(e->group[0] == group, "The work-item's group is (%ld,0,0), not %ld.", group,
		      e->group[0]);
}

START_TEST(test_local_read_write_race)
{
	struct seen s = parse_log("race_local_rw.log", 0);
	ck_assert_msg(s.count == 120 && s.per_kind[OGLOG_RACE] == 120,
		      "All 120 messages of the log are races, not %zu of %zu.",
		      s.per_kind[OGLOG_RACE], s.count);
	const struct oglog_message *m = &s.kept;
	ck_assert_str_eq(m->what, "read-write");
	ck_assert_str_eq(m->space, "local");
	ck_assert_str_eq(m->kernel, "reduce_sum_nobarrier");
	ck_assert_msg(m->nentities == 2, "A race names two entities, not %zu.", m->nentities);
	assert_item(&m->entities[0], 1, 1, 0);
	assert_item(&m->entities[1], 0, 0, 0);
	ck_assert_msg(m->nlocations == 2, "A race names two locations, not %zu.", m->nlocations);
	ck_assert_msg(m->locations[0].line == 14 && m->locations[0].col == 17,
		      "The first access is at 14:17, not %d:%d.", m->locations[0].line,
		      m->locations[0].col);
	ck_assert_msg(m->locations[1].line == 14 && m->locations[1].col == 20,
		      "The second access is at 14:20, not %d:%d.", m->locations[1].line,
		      m->locations[1].col);
	ck_assert_str_eq(m->locations[0].file, "input.cl");
	ck_assert_str_eq(m->locations[0].source, "scratch[lid] += scratch[lid + s];");
	ck_assert_msg(oglog_access_type(m->locations[0].instruction) == 'w',
		      "The first access is the store: %s", m->locations[0].instruction);
	ck_assert_msg(oglog_access_type(m->locations[1].instruction) == 'r',
		      "The second access is the load: %s", m->locations[1].instruction);
}
END_TEST

START_TEST(test_global_write_write_race)
{
	struct seen s = parse_log("race_global_ww.log", 0);
	ck_assert_msg(s.count > 1 && s.per_kind[OGLOG_RACE] == s.count,
		      "Every message is a race (%zu of %zu).", s.per_kind[OGLOG_RACE], s.count);
	ck_assert_str_eq(s.kept.what, "write-write");
	ck_assert_str_eq(s.kept.space, "global");
	ck_assert_str_eq(s.kept.kernel, "write_group_slot");
	ck_assert_msg(s.kept.locations[0].line == 9 && s.kept.locations[1].line == 9,
		      "Both writes are on line 9.");
}
END_TEST

START_TEST(test_global_race_across_groups)
{
	struct seen s = parse_log("race_global_rw.log", 1);
	ck_assert_msg(s.count == 2, "Two messages, one for each group edge; found %zu.", s.count);
	const struct oglog_message *m = &s.kept;
	ck_assert_str_eq(m->space, "global");
	assert_item(&m->entities[0], 32, 0, 1);
	assert_item(&m->entities[1], 31, 31, 0);
	ck_assert_msg(m->locations[0].line == 16 && m->locations[1].line == 18,
		      "The store at 16 and the load at 18, not %d and %d.", m->locations[0].line,
		      m->locations[1].line);
}
END_TEST

START_TEST(test_divergence_at_a_barrier)
{
	struct seen s = parse_log("divergence_barrier.log", 0);
	ck_assert_msg(s.count == 2 && s.per_kind[OGLOG_DIVERGENCE] == 2,
		      "One divergence a work-group, two in all.");
	const struct oglog_message *m = &s.kept;
	ck_assert_str_eq(m->what, "barrier");
	ck_assert_str_eq(m->kernel, "half_barrier");
	ck_assert_str_eq(m->info, "Only 16 out of 32 work-items executed barrier");
	ck_assert_msg(m->nentities == 1 && !m->entities[0].is_item && m->entities[0].group[0] == 0,
		      "The message names work-group (0,0,0) as its entity.");
	ck_assert_msg(m->nlocations == 1 && m->locations[0].line == 27,
		      "The barrier is at line 27.");
	ck_assert_str_eq(m->locations[0].source, "barrier(CLK_LOCAL_MEM_FENCE);");
}
END_TEST

START_TEST(test_divergence_between_barriers)
{
	struct seen s = parse_log("divergence_two_barriers.log", 0);
	ck_assert_msg(s.per_kind[OGLOG_DIVERGENCE] == s.count, "Every message is a divergence.");
	const struct oglog_message *m = &s.kept;
	ck_assert_msg(m->nlocations == 2 && m->locations[0].line == 37 &&
			      m->locations[1].line == 39,
		      "The two barriers are at 37 and 39, not %d and %d.", m->locations[0].line,
		      m->locations[1].line);
	ck_assert_msg(m->nentities == 1 && m->entities[0].is_item,
		      "The work-item that arrived at the other barrier is named.");
	ck_assert_msg(m->info == NULL, "fence= and Previous lines are no explanation: %s", m->info);
}
END_TEST

START_TEST(test_invalid_read_then_uninitialized_write)
{
	struct seen s = parse_log("oob_global_read.log", 0);
	ck_assert_msg(s.count == 2 && s.per_kind[OGLOG_INVALID_ACCESS] == 1 &&
			      s.per_kind[OGLOG_UNINITIALIZED] == 1,
		      "One invalid read, then the uninitialised value it wrote.");
	ck_assert_str_eq(s.kept.what, "read");
	ck_assert_str_eq(s.kept.space, "global");
	assert_item(&s.kept.entities[0], 63, 31, 1);
	struct seen second = parse_log("oob_global_read.log", 1);
	ck_assert_str_eq(second.kept.what, "value written");
	ck_assert_str_eq(second.kept.space, "global");
}
END_TEST

START_TEST(test_private_array_index)
{
	struct seen s = parse_log("private_index.log", 1);
	ck_assert_msg(s.per_kind[OGLOG_ARRAY_INDEX] > 0 && s.per_kind[OGLOG_INVALID_ACCESS] > 0,
		      "The log holds index and invalid-read messages.");
	ck_assert_msg(s.kept.kind == OGLOG_ARRAY_INDEX, "The second message is the index one.");
	ck_assert_str_eq(s.kept.space, "private");
	ck_assert_str_eq(s.kept.headline, "Index (4) exceeds static array size (4)");
}
END_TEST

START_TEST(test_suppression_note)
{
	struct seen s = parse_log("uninit_suppressed.log", 3);
	ck_assert_msg(s.per_kind[OGLOG_UNINITIALIZED] == 3 && s.per_kind[OGLOG_SUPPRESSED] == 1,
		      "Three uninitialised uses, then the note that Oclgrind stopped.");
	ck_assert_msg(s.kept.kind == OGLOG_SUPPRESSED && s.kept.suppressed == 3,
		      "The note says it stopped after 3.");
	struct seen first = parse_log("uninit_suppressed.log", 0);
	ck_assert_str_eq(first.kept.what, "control flow");
	ck_assert_msg(first.kept.space == NULL, "Control flow has no memory space.");
}
END_TEST

START_TEST(test_api_errors_from_stderr)
{
	struct seen s = parse_log("api_error.stderr", 1);
	ck_assert_msg(s.count == 2 && s.per_kind[OGLOG_API_ERROR] == 2, "Two API errors.");
	ck_assert_str_eq(s.kept.function, "clEnqueueNDRangeKernel");
	ck_assert_str_eq(s.kept.error, "CL_INVALID_WORK_GROUP_SIZE");
	ck_assert_str_eq(s.kept.info,
			 "local_work_size[0]=16 does not divide global_work_size[0]=60");
	ck_assert_msg(s.kept.kernel == NULL, "API errors name no kernel.");
}
END_TEST

START_TEST(test_fatal_error)
{
	struct seen s = parse_log("fatal_unreachable.log", 0);
	ck_assert_msg(s.count == 1 && s.kept.kind == OGLOG_FATAL, "One fatal error.");
	ck_assert_str_eq(s.kept.info, "Encountered unreachable instruction");
	ck_assert_str_eq(s.kept.kernel, "switch_table");
	ck_assert_msg(s.kept.nlocations == 1 && s.kept.locations[0].line == 80,
		      "It stopped at line 80.");
}
END_TEST

START_TEST(test_unknown_text_is_kept)
{
	struct seen s = { .keep = 0 };
	size_t n = oglog_parse("\nSomething new happened\n\tKernel: k\n\n", collect, &s);
	ck_assert_msg(n == 1 && s.kept.kind == OGLOG_OTHER, "Unknown text is one OTHER message.");
	ck_assert_str_eq(s.kept.headline, "Something new happened");
	ck_assert_str_eq(s.kept.kernel, "k");
	kept[nkept++] = s.kept;
	ck_assert_msg(oglog_parse("", collect, &s) == 0, "An empty log holds no message.");
}
END_TEST

START_TEST(test_instruction_shapes)
{
	ck_assert_msg(oglog_access_type("store float %1, float addrspace(1)* %p, align 4") == 'w',
		      "A store writes.");
	ck_assert_msg(oglog_access_type("%5 = load float, float* %a, align 4") == 'r',
		      "A load reads.");
	ck_assert_msg(oglog_access_type("%3 = call spir_func i32 @_Z10atomic_addPU3AS1Vii(i32 "
					"addrspace(1)* %p, i32 1)") == 'a',
		      "An atomic built-in is an atomic access.");
	ck_assert_msg(oglog_access_type("br i1 %cmp, label %a, label %b") == 0,
		      "A branch is no access.");
	ck_assert_str_eq(oglog_instruction_space("%5 = load float, float* %a, align 4"), "private");
	ck_assert_str_eq(oglog_instruction_space("store float %v, float addrspace(3)* %p, align 4"),
			 "local");
	ck_assert_str_eq(oglog_instruction_space("%1 = load i32, i32 addrspace(2)* %c, align 4"),
			 "constant");
}
END_TEST

static void count_message(void *ctx, const struct oglog_message *m)
{
	(void)m;
	++*(size_t *)ctx;
}

/* Locations and work-item ids, read by hand: each form Oclgrind writes, and numbers that
 * do not fit, which name nothing rather than a wrong line or item. */
START_TEST(test_locations_and_ids_are_read_exactly)
{
	static const char log[] =
		"Read-write data race at global memory address 0x10\n"
		"\tKernel: k\n"
		"\tFirst entity:  Global(9223372036854775808,0,0) Local(1,0,0) Group(0,0,0)\n"
		"\tAt line 99999999999 (column 2) of k.cl:\n"
		"\tAt line 7 (column 3) of k.cl\n"
		"\tSecond entity: Global(17,1,2) Local(1,1,2) Group(-1,0,4)\n"
		"\t  store i32 %x, i32 addrspace(1)* %p, align 4\n"
		"\tAt line 12 (column 30) of k.cl:\n"
		"\t  (source not available)\n"
		"\tAt line 5 of other file.cl\n"
		"\n";
	struct seen s = { .keep = 0 };
	ck_assert_uint_eq(oglog_parse(log, collect, &s), 1);
	kept[nkept++] = s.kept;
	const struct oglog_message *m = &s.kept;
	ck_assert_msg(m->nentities == 2 && !m->entities[0].is_item,
		      "The entity whose global id does not fit is its group alone.");
	const struct entity *e = &m->entities[1];
	ck_assert_msg(e->is_item && e->global[0] == 17 && e->global[1] == 1 && e->global[2] == 2 &&
			      e->group[0] == -1 && e->group[2] == 4,
		      "The second entity is global (17,1,2), group (-1,0,4).");
	ck_assert_msg(m->nlocations == 2,
		      "A line number that does not fit, and a column without its colon, are no "
		      "locations: %zu read.",
		      m->nlocations);
	ck_assert_msg(m->locations[0].line == 12 && m->locations[0].col == 30,
		      "The first location is 12:30, not %d:%d.", m->locations[0].line,
		      m->locations[0].col);
	ck_assert_str_eq(m->locations[0].file, "k.cl");
	ck_assert_msg(oglog_access_type(m->locations[0].instruction) == 'w',
		      "The store above it is its instruction.");
	ck_assert_msg(m->locations[1].line == 5 && m->locations[1].col == 0,
		      "The location without a column is line 5, column 0, not %d:%d.",
		      m->locations[1].line, m->locations[1].col);
	ck_assert_str_eq(m->locations[1].file, "other file.cl");
}
END_TEST

/* Whatever a log holds, parsing ends without a crash: a "Work-group:" line without its
 * triple once sent NULL to sscanf. */
START_TEST(test_malformed_lines_do_not_crash)
{
	static const char *const logs[] = {
		"Read-write data race at local memory address 0x0\n\tWork-group: x\n",
		"Work-group: x\n",
		"OCLGRIND FATAL ERROR (x)\n\tWork-group: (\n\tFirst entity: Global(1,2\n",
		("Invalid read of size 4 at global memory address 0x0\n\tAt line 99999999999999 "
		 "of x:\n\t  \n\tAt line -1 (column -5) of :\n"),
		"\t\t\n\n\n\tKernel:\n",
	};
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		size_t seen = 0;
		oglog_parse(logs[i], count_message, &seen);
		ck_assert_msg(seen >= 1, "Log %zu is parsed into messages.", i + 1);
	}
}
END_TEST

Suite *oglog_suite(void)
{
	Suite *s = suite_create("oglog");
	TCase *tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, NULL, free_kept);
	tcase_add_test(tc, test_local_read_write_race);
	tcase_add_test(tc, test_global_write_write_race);
	tcase_add_test(tc, test_global_race_across_groups);
	tcase_add_test(tc, test_divergence_at_a_barrier);
	tcase_add_test(tc, test_divergence_between_barriers);
	tcase_add_test(tc, test_invalid_read_then_uninitialized_write);
	tcase_add_test(tc, test_private_array_index);
	tcase_add_test(tc, test_suppression_note);
	tcase_add_test(tc, test_api_errors_from_stderr);
	tcase_add_test(tc, test_fatal_error);
	tcase_add_test(tc, test_unknown_text_is_kept);
	tcase_add_test(tc, test_instruction_shapes);
	tcase_add_test(tc, test_locations_and_ids_are_read_exactly);
	tcase_add_test(tc, test_malformed_lines_do_not_crash);
	suite_add_tcase(s, tc);
	return s;
}
