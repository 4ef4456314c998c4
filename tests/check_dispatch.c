/* check_dispatch.c - the isolation policy, with a fake backend in place of a driver: a
 * lost session, a crashing worker and a hanging one each cost one run, and the runs after
 * them still happen, in order, each reported once. And what run options ask of the
 * Oclgrind backend, with Oclgrind itself. */
#include "config.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/claim.h"
#include "base/util.h"
#include "check_suites.h"
#include "exec/backend.h"
#include "exec/dispatch.h"
#include "exec/runner.h"
#include "exec/wire.h"
#include "exec/worker.h"

/* Set in the process that listed the targets: a run there came from the adopted
 * listing worker, a run elsewhere from a fresh one. */
static bool listed_here;

static int fake_list(struct target **targets, size_t *count, char **cause)
{
	listed_here = true;
	*targets = xcalloc(1, sizeof **targets);
	(*targets)[0] = (struct target){ .name = xstrdup("fake-0"),
					 .type = xstrdup("cpu"),
					 .device = xstrdup("fake"),
					 .platform = xstrdup("fake"),
					 .driver = xstrdup("0"),
					 .opencl = xstrdup("none"),
					 .limits = { .compute_units = 1, .max_work_group = 1024 } };
	*count = 1;
	return 0;
}

static int fake_open(const struct target *target, struct backend_session **session, char **cause)
{
	*session = NULL;
	return 0;
}

static int fake_build(struct backend_session *session, const struct test_case *tc,
		      unsigned *cached, struct result *failure)
{
	return 1;
}

/* Misbehaves at the first size (N = 64) the way its case's name says; otherwise copies
 * buffer 0 into buffer 1, which is what the case's check (rotate by 0) wants. */
static int fake_execute(struct backend_session *session, const struct test_case *tc,
			const struct plan *plan, void *const *initial, void **final,
			unsigned repeat, uint64_t *round_ns, const struct finding_list *settled,
			struct result *failure)
{
	if (plan->n.d[0] == 64) {
		if (strcmp(tc->name, "lost") == 0) {
			result_set_diag(failure, VERDICT_CRASH, tc->path, 0, 0,
					"the device faulted");
			return BACKEND_LOST;
		}
		if (strcmp(tc->name, "segv") == 0) {
			fprintf(stderr, "fake driver: about to fault\n");
			raise(SIGSEGV);
		}
		if (strcmp(tc->name, "hang") == 0)
			sleep(60);
		if (strcmp(tc->name, "spin") == 0)
			for (volatile unsigned long i = 0;; i++)
				;
		if (strcmp(tc->name, "hog") == 0) {
			void *two_gib = malloc((size_t)2 << 30);
			free(two_gib);
			if (two_gib == NULL) {
				result_set_diag(failure, VERDICT_CASE_ERROR, tc->path, 0, 0,
						"out of host memory");
				return -1;
			}
		}
	}
	memcpy(final[1], initial[0], plan->buffer_counts[1] * 4);
	/* Tells the test which worker ran this: the listing one, or which fresh one. */
	round_ns[0] = listed_here ? 1 : 2 + (uint64_t)getpid();
	return 0;
}

static void fake_close(struct backend_session *session)
{
}

/* Set in a worker once it has run the case named "noisy": a simulator's case that
 * reported something, after which the fake cannot renew its process. */
static bool noisy_ran;

static int fake_simulate(struct backend_session *session, const struct test_case *tc,
			 const struct plan *plan, void *const *initial, void **final,
			 unsigned repeat, uint64_t *round_ns, const struct finding_list *settled,
			 struct result *failure)
{
	noisy_ran |= strcmp(tc->name, "noisy") == 0;
	return fake_execute(session, tc, plan, initial, final, repeat, round_ns, settled, failure);
}

static bool fake_renew(struct backend_session *session)
{
	return !noisy_ran;
}

static const struct backend backend_fake = {
	.name = "fake",
	.capabilities = CAN_TIME,
	.list_targets = fake_list,
	.open = fake_open,
	.build = fake_build,
	.execute = fake_execute,
	.close = fake_close,
};

/* The fake driver as a simulator, whose processes it can renew until a noisy case. */
static const struct backend backend_fake_simulator = {
	.name = "fake-simulator",
	.capabilities = CAN_ONLY_SMALL_SIZES | CAN_FIND | CAN_ONLY_FRESH_SESSIONS | CAN_REPEAT,
	.list_targets = fake_list,
	.open = fake_open,
	.build = fake_build,
	.execute = fake_simulate,
	.close = fake_close,
	.renew = fake_renew,
};

struct collected {
	char names[16][16];
	long long n[16];
	enum verdict verdict[16];
	bool last_words[16];  /* the detail holds what the fake driver printed */
	bool adopted[16];     /* run by the worker that listed the targets */
	bool cpu_limited[16]; /* the message names the CPU-time limit */
	uint64_t worker[16];  /* which worker ran it */
	size_t count;
};

static void collect(void *ctx, struct result *r)
{
	struct collected *c = ctx;
	ck_assert_msg(c->count < 16, "More results arrived than runs exist.");
	snprintf(c->names[c->count], sizeof c->names[0], "%s", r->case_name);
	c->n[c->count] = r->n.d[0];
	c->verdict[c->count] = r->verdict;
	c->adopted[c->count] = r->kernel_ns == 1;
	c->last_words[c->count] = r->detail && strstr(r->detail, "fake driver: about to fault");
	c->cpu_limited[c->count] = r->message && strstr(r->message, "CPU time");
	c->worker[c->count] = r->kernel_ns;
	c->count++;
}

/* The good case once for each name: the fake backend misbehaves as the name says. */
static void named_cases(const char *const *names, size_t n, struct test_case **cases)
{
	char *path = test_data_path("cases/good.yaml");
	for (size_t i = 0; i < n; i++) {
		struct diag_list diags = { 0 };
		cases[i] = case_load(path, &diags);
		ck_assert_msg(cases[i] != NULL, "The good case should load.");
		free(cases[i]->name);
		cases[i]->name = xstrdup(names[i]);
	}
	free(path);
}

START_TEST(test_each_failure_costs_one_run_and_the_rest_still_run)
{
	const char *names[] = { "good", "lost", "segv", "hang" };
	struct test_case *cases[4];
	named_cases(names, 4, cases);

	struct run_options opt = { .repeat = 1 };
	struct dispatcher *d;
	char *cause = NULL;
	ck_assert_msg(dispatch_open(&backend_fake, cases, 4, &opt, 2, &d, &cause) == 0 &&
			      dispatch_target_count(d) == 1 &&
			      strcmp(dispatch_target(d, 0)->name, "fake-0") == 0,
		      "The fake backend's one target is listed through a worker.");

	struct collected got = { 0 };
	dispatch_run(d, 0, collect, &got);
	dispatch_close(d);

	static const struct {
		const char *name;
		long long n;
		enum verdict verdict;
	} want[] = {
		{ "good", 64, VERDICT_PASS },	 { "good", 1024, VERDICT_PASS },
		{ "lost", 64, VERDICT_CRASH },	 { "lost", 1024, VERDICT_PASS },
		{ "segv", 64, VERDICT_CRASH },	 { "segv", 1024, VERDICT_PASS },
		{ "hang", 64, VERDICT_TIMEOUT }, { "hang", 1024, VERDICT_PASS },
	};
	ck_assert_msg(got.count == 8, "Eight runs should give eight results, not %zu.", got.count);
	for (size_t i = 0; i < 8; i++)
		ck_assert_msg(strcmp(got.names[i], want[i].name) == 0 && got.n[i] == want[i].n &&
				      got.verdict[i] == want[i].verdict,
			      "Result %zu should be %s N=%lld %s, not %s N=%lld %s.", i,
			      want[i].name, want[i].n, verdict_name(want[i].verdict), got.names[i],
			      got.n[i], verdict_name(got.verdict[i]));

	for (size_t i = 0; i < 8; i++)
		ck_assert_msg(got.last_words[i] == (i == 4),
			      "What the worker printed belongs to the crash it "
			      "printed it in (result 4) only.");
	ck_assert_msg(got.adopted[0] && got.adopted[1] && !got.adopted[3] && !got.adopted[7],
		      "The listing worker runs until its session is lost; fresh workers carry on.");

	for (int i = 0; i < 4; i++)
		case_free(cases[i]);
}
END_TEST

/* The fake backend's dispatcher over `cases`, with a claim to hand them out. */
static struct dispatcher *fake_claimed(struct test_case *const *cases, size_t n,
				       const struct run_options *opt, unsigned timeout_s,
				       struct claim **claim)
{
	struct dispatcher *d;
	char *cause = NULL;
	ck_assert_msg(dispatch_open(&backend_fake, cases, n, opt, timeout_s, &d, &cause) == 0,
		      "The fake backend lists its target.");
	*claim = claim_new();
	ck_assert_msg(*claim != NULL, "Shared memory for the claim is had.");
	return d;
}

/* Cases handed out one at a time: each failure still costs its one run, the cases come in
 * the order taken, and a device's worker runs the next case it asks for itself. */
START_TEST(test_cases_handed_out_cost_a_failure_one_run_each)
{
	const char *names[] = { "good", "lost", "segv", "hang", "next", "last" };
	struct test_case *cases[6];
	named_cases(names, 6, cases);
	struct run_options opt = { .repeat = 1 };
	struct claim *claim;
	struct dispatcher *d = fake_claimed(cases, 6, &opt, 2, &claim);
	struct collected got = { 0 };
	dispatch_run_claimed(d, 0, claim, collect, &got);
	dispatch_close(d);

	static const enum verdict want[] = {
		VERDICT_PASS,  VERDICT_PASS, VERDICT_CRASH,   VERDICT_PASS,
		VERDICT_CRASH, VERDICT_PASS, VERDICT_TIMEOUT, VERDICT_PASS,
		VERDICT_PASS,  VERDICT_PASS, VERDICT_PASS,    VERDICT_PASS,
	};
	ck_assert_msg(got.count == 12, "Twelve runs should give twelve results, not %zu.",
		      got.count);
	for (size_t i = 0; i < 12; i++)
		ck_assert_msg(strcmp(got.names[i], names[i / 2]) == 0 &&
				      got.n[i] == (i % 2 ? 1024 : 64) && got.verdict[i] == want[i],
			      "Result %zu should be %s N=%d %s, not %s N=%lld %s.", i, names[i / 2],
			      i % 2 ? 1024 : 64, verdict_name(want[i]), got.names[i], got.n[i],
			      verdict_name(got.verdict[i]));
	for (size_t i = 0; i < 12; i++)
		ck_assert_msg(!got.adopted[i], "The listing worker takes no handed-out case.");
	ck_assert_msg(got.worker[0] == got.worker[1] && got.worker[1] != got.worker[3] &&
			      got.worker[7] > 2 && got.worker[7] == got.worker[8] &&
			      got.worker[8] == got.worker[11],
		      "A worker runs case after case until one fails it; a fresh one carries on "
		      "with the rest.");
	ck_assert_msg(claim_take(claim) >= 6, "Every case was taken from the claim.");
	claim_free(claim);
	for (int i = 0; i < 6; i++)
		case_free(cases[i]);
}
END_TEST

/* A simulator's worker runs case after case while the backend can renew its process, in
 * order or handed out: the case after a noisy one, and after a crash, gets a fresh one. */
START_TEST(test_a_simulator_worker_goes_on_while_its_process_is_renewed)
{
	const char *names[] = { "a", "b", "noisy", "c", "segv", "d", "e" };
	struct test_case *cases[7];
	named_cases(names, 7, cases);
	struct run_options opt = { .repeat = 1 };
	for (int handed_out = 0; handed_out <= 1; handed_out++) {
		struct dispatcher *d;
		char *cause = NULL;
		ck_assert_msg(
			dispatch_open(&backend_fake_simulator, cases, 7, &opt, 10, &d, &cause) == 0,
			"The fake simulator lists its target.");
		dispatch_release_idle(d);
		struct claim *claim = handed_out ? claim_new() : NULL;
		struct collected got = { 0 };
		if (handed_out)
			dispatch_run_claimed(d, 0, claim, collect, &got);
		else
			dispatch_run(d, 0, collect, &got);
		dispatch_close(d);
		ck_assert_msg(got.count == 7,
			      "Seven cases at one simulated size give seven results, not %zu.",
			      got.count);
		for (size_t i = 0; i < 7; i++)
			ck_assert_msg(strcmp(got.names[i], names[i]) == 0 &&
					      got.verdict[i] ==
						      (i == 4 ? VERDICT_CRASH : VERDICT_PASS),
				      "Result %zu should be %s's.", i, names[i]);
		uint64_t *w = got.worker;
		ck_assert_msg(w[0] == w[1] && w[1] == w[2],
			      "Cases that leave nothing behind leave their worker to the next (%s).",
			      handed_out ? "handed out" : "in order");
		ck_assert_msg(w[3] != w[2] && w[3] > 2,
			      "The case after a noisy one runs in a fresh worker (%s).",
			      handed_out ? "handed out" : "in order");
		ck_assert_msg(w[5] != w[3] && w[5] == w[6],
			      "After a crash a fresh worker goes on, and keeps going (%s).",
			      handed_out ? "handed out" : "in order");
		if (claim) {
			ck_assert_msg(claim_take(claim) >= 7, "Every case was taken.");
			claim_free(claim);
		}
	}
	for (int i = 0; i < 7; i++)
		case_free(cases[i]);
}
END_TEST

static void write_name(void *ctx, struct result *r)
{
	FILE *f = ctx;
	fprintf(f, "%s %lld %s\n", r->case_name, r->n.d[0], verdict_name(r->verdict));
}

/* Two processes with one claim share the cases out: each case runs once in all. */
START_TEST(test_processes_sharing_a_claim_run_each_case_once)
{
	const char *names[] = { "a", "b", "c", "d", "segv", "e", "f" };
	struct test_case *cases[7];
	named_cases(names, 7, cases);
	struct run_options opt = { .repeat = 1 };
	struct claim *claim;
	struct dispatcher *d = fake_claimed(cases, 7, &opt, 10, &claim);
	dispatch_release_idle(d);
	FILE *theirs = tmpfile();
	ck_assert_msg(theirs != NULL, "A file for the other process's results is had.");
	pid_t pid = fork();
	ck_assert_msg(pid >= 0, "The other process starts.");
	if (pid == 0) {
		dispatch_run_claimed(d, 0, claim, write_name, theirs);
		fflush(theirs);
		_exit(0);
	}
	FILE *ours = tmpfile();
	ck_assert_msg(ours != NULL, "A file for this process's results is had.");
	dispatch_run_claimed(d, 0, claim, write_name, ours);
	int status;
	ck_assert_msg(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
			      WEXITSTATUS(status) == 0,
		      "The other process ends well.");
	dispatch_close(d);

	char line[128];
	size_t runs[7] = { 0 }, total = 0, crashes = 0;
	FILE *files[] = { ours, theirs };
	for (int k = 0; k < 2; k++) {
		rewind(files[k]);
		while (fgets(line, sizeof line, files[k])) {
			char name[16], verdict[32];
			long long n;
			ck_assert_msg(sscanf(line, "%15s %lld %31s", name, &n, verdict) == 3,
				      "A result line reads back: %s", line);
			for (size_t c = 0; c < 7; c++)
				runs[c] += strcmp(name, names[c]) == 0;
			crashes += strcmp(verdict, "crash") == 0;
			total++;
		}
		fclose(files[k]);
	}
	ck_assert_msg(total == 14, "Seven cases of two sizes give fourteen results, not %zu.",
		      total);
	for (size_t c = 0; c < 7; c++)
		ck_assert_msg(runs[c] == 2, "Case %s ran %zu times, not twice.", names[c], runs[c]);
	ck_assert_msg(crashes == 1, "The one crash is segv's, once.");
	claim_free(claim);
	for (int i = 0; i < 7; i++)
		case_free(cases[i]);
}
END_TEST

START_TEST(test_limits_stop_a_run_that_spins_or_allocates_too_much)
{
	const char *names[] = { "spin", "hog" };
	struct test_case *cases[2];
	named_cases(names, 2, cases);

	struct run_options opt = { .repeat = 1,
				   .cpu_limit_s = 1,
				   .address_space_limit = (uint64_t)1 << 30 };
	struct dispatcher *d;
	char *cause = NULL;
	ck_assert_msg(dispatch_open(&backend_fake, cases, 2, &opt, 20, &d, &cause) == 0,
		      "The fake backend lists its target under limits.");
	struct collected got = { 0 };
	uint64_t start = clock_now_ns();
	dispatch_run(d, 0, collect, &got);
	dispatch_close(d);
	double seconds = (clock_now_ns() - start) / 1e9;

	ck_assert_msg(got.count == 4, "Four runs should give four results, not %zu.", got.count);
	ck_assert_msg(got.verdict[0] == VERDICT_TIMEOUT && got.cpu_limited[0],
		      "A run that spins past its CPU limit is a timeout that names the limit, not "
		      "%s.",
		      verdict_name(got.verdict[0]));
	ck_assert_msg(seconds < 15,
		      "The CPU limit (1 s), not the wall-clock one (20 s), stops the spinning run; "
		      "it took %.1f s.",
		      seconds);
	if (worker_limits_address_space())
		ck_assert_msg(got.verdict[2] == VERDICT_CASE_ERROR,
			      "An allocation past the address-space limit fails inside the run, "
			      "not %s.",
			      verdict_name(got.verdict[2]));
	ck_assert_msg(got.verdict[1] == VERDICT_PASS && got.verdict[3] == VERDICT_PASS,
		      "The runs after each still pass.");
	for (int i = 0; i < 2; i++)
		case_free(cases[i]);
}
END_TEST

/* Grading's limits: runs after the build get the shorter run limit, and the first run
 * that hangs ends the dispatch, so a kernel that hangs costs one limit, not one a run. */
START_TEST(test_a_hang_ends_the_dispatch_under_the_run_limit)
{
	const char *names[] = { "hang", "good" };
	struct test_case *cases[2];
	named_cases(names, 2, cases);

	struct run_options opt = { .repeat = 1,
				   .run_limit_s = 1,
				   .run_limit_why = "the run limit",
				   .stop_at_timeout = true };
	struct dispatcher *d;
	char *cause = NULL;
	ck_assert_msg(dispatch_open(&backend_fake, cases, 2, &opt, 20, &d, &cause) == 0,
		      "The fake backend lists its target.");
	struct collected got = { 0 };
	uint64_t start = clock_now_ns();
	dispatch_run(d, 0, collect, &got);
	dispatch_close(d);
	double seconds = (clock_now_ns() - start) / 1e9;

	ck_assert_msg(got.count == 1 && got.verdict[0] == VERDICT_TIMEOUT,
		      "The hanging run is the last result (%zu results, the first %s).", got.count,
		      got.count ? verdict_name(got.verdict[0]) : "none");
	ck_assert_msg(seconds < 10,
		      "The run limit (1 s), not the dispatcher's (20 s), stops the hanging run; "
		      "it took %.1f s.",
		      seconds);
	for (int i = 0; i < 2; i++)
		case_free(cases[i]);
}
END_TEST

/* In a worker: sends the bytes `arg` points at (a struct garbage), then waits to be
 * killed, as a worker whose memory a kernel overwrote might. */
struct garbage {
	const char *bytes;
	size_t len;
};

static void send_garbage(void *arg, int fd, int control)
{
	const struct garbage *g = arg;
	if (write(fd, g->bytes, g->len) != (ssize_t)g->len)
		_exit(3);
	sleep(60);
}

/* A stream that is no frame, or a frame bigger than any the harness sends, is garbled at
 * once: the parent neither waits for the rest nor for the worker to end by itself. */
START_TEST(test_a_garbled_stream_is_noticed_at_once)
{
	char unknown_type[] = { 99, 0, 0, 0, 0 };
	char huge[5] = { FRAME_RESULT };
	uint32_t len = WIRE_MAX_PAYLOAD + 1;
	memcpy(huge + 1, &len, sizeof len);
	const struct garbage cases[] = { { unknown_type, sizeof unknown_type },
					 { huge, sizeof huge } };
	for (size_t i = 0; i < 2; i++) {
		struct worker w;
		char *cause = NULL;
		ck_assert_msg(worker_start(&w, NULL, send_garbage, (void *)&cases[i], &cause) == 0,
			      "The worker starts.");
		enum frame_type type;
		const char *payload;
		size_t plen;
		uint64_t start = clock_now_ns();
		enum worker_event ev =
			worker_next(&w, start + 20 * 1000000000ull, &type, &payload, &plen);
		ck_assert_msg(ev == WORKER_GARBLED,
			      "Garbage %zu is a garbled stream, not event %d.", i + 1, (int)ev);
		free(worker_finish(&w, true));
		ck_assert_msg((clock_now_ns() - start) / 1e9 < 10,
			      "Garbage is noticed and its worker stopped at once.");
	}
}
END_TEST

/* The Oclgrind backend's one use of run_options.settled: it tells a write-write race
 * whose writes store one value from one of differing values by simulating the run again,
 * and a race the options list as an error already is not simulated again. */
static void keep_findings(void *ctx, struct result *r)
{
	finding_list_merge(ctx, &r->findings);
}

static struct finding_list same_value_run(struct finding_list *settled)
{
	const char *why = backend_oclgrind.unavailable();
	ck_assert_msg(why == NULL, "This test needs Oclgrind: %s", why ? why : "");
	struct test_case *tc = test_data_case("cases/same_value.yaml");
	struct run_options opt = { .repeat = 1, .settled = settled };
	struct dispatcher *d;
	char *cause = NULL;
	ck_assert_msg(dispatch_open(&backend_oclgrind, &tc, 1, &opt, 20, &d, &cause) == 0,
		      "Oclgrind should open: %s", cause ? cause : "");
	struct finding_list found = { 0 };
	dispatch_run(d, 0, keep_findings, &found);
	dispatch_close(d);
	case_free(tc);
	ck_assert_msg(found.count == 1 && found.items[0].kind == FINDING_RACE,
		      "The case's one finding is its race, not %zu findings.", found.count);
	return found;
}

START_TEST(test_a_settled_race_is_not_simulated_again)
{
	struct finding_list alone = same_value_run(NULL);
	ck_assert_msg(alone.items[0].severity == DIAG_WARNING,
		      "Alone, the second simulation shows the writes store one value.");

	/* Settled as a warning: no error to rely on, so the run classifies it itself. */
	struct finding_list as_warning = same_value_run(&alone);
	ck_assert_msg(as_warning.items[0].severity == DIAG_WARNING,
		      "A race settled only as a warning is still simulated again.");

	alone.items[0].severity = DIAG_ERROR;
	struct finding_list as_error = same_value_run(&alone);
	ck_assert_msg(as_error.items[0].severity == DIAG_ERROR,
		      "A race settled as an error is not simulated again: it stays an error.");

	finding_list_free(&alone);
	finding_list_free(&as_warning);
	finding_list_free(&as_error);
}
END_TEST

/* Keeps each result's first finding's severity. */
struct settling {
	enum diag_severity severity[4];
	size_t count;
};

static void settle_result(void *ctx, struct result *r)
{
	struct settling *s = ctx;
	ck_assert_msg(s->count < 4 && r->findings.count > 0, "Each run reports its race.");
	s->severity[s->count++] = r->findings.items[0].severity;
}

/* A race one case shows as an error is settled for the next, in the dispatching process
 * and in a worker kept after it alike: the next case runs no second simulation to call the
 * same race, storing one value this time, a warning. */
START_TEST(test_a_kept_worker_knows_what_its_cases_settled)
{
	const char *why = backend_oclgrind.unavailable();
	ck_assert_msg(why == NULL, "This test needs Oclgrind: %s", why ? why : "");
	const char *names[] = { "cases/one_place_differs.yaml", "cases/one_place_same.yaml" };
	struct test_case *cases[2];
	for (int i = 0; i < 2; i++)
		cases[i] = test_data_case(names[i]);
	struct finding_list settled = { 0 };
	struct run_options opt = { .repeat = 1, .settled = &settled };
	struct dispatcher *d;
	char *cause = NULL;
	ck_assert_msg(dispatch_open(&backend_oclgrind, cases, 2, &opt, 20, &d, &cause) == 0,
		      "Oclgrind should open: %s", cause ? cause : "");
	struct settling got = { 0 };
	dispatch_run(d, 0, settle_result, &got);
	dispatch_close(d);
	ck_assert_msg(got.count == 2 && got.severity[0] == DIAG_ERROR,
		      "The race of differing values is an error.");
	ck_assert_msg(got.severity[1] == DIAG_ERROR,
		      "The same race, settled as an error by the case before, stays one.");
	ck_assert_msg(settled.count == 1 && settled.items[0].severity == DIAG_ERROR,
		      "The dispatching process keeps the race it was sent as settled.");
	finding_list_free(&settled);
	for (int i = 0; i < 2; i++)
		case_free(cases[i]);
}
END_TEST

static void no_begin(void *ctx, size_t case_index, size_t run)
{
}

/* What a case's runs came to: all complete, and how many of Oclgrind's messages their
 * findings folded. */
struct tally {
	size_t results, incomplete, warnings;
	unsigned long messages;
};

static void tally_result(void *ctx, struct result *r)
{
	struct tally *t = ctx;
	t->results++;
	for (size_t i = 0; i < r->findings.count; i++) {
		t->messages += r->findings.items[i].count;
		t->incomplete += r->findings.items[i].kind == FINDING_TRUNCATED;
		t->warnings += r->findings.items[i].severity == DIAG_WARNING;
	}
}

/* Runs the test case `name` in a session of its own in this process, and asks Oclgrind's
 * backend whether it renewed the process for the next. */
static bool simulate_here(const struct target *target, const char *name, struct tally *got)
{
	struct test_case *tc = test_data_case(name);
	struct backend_session *session;
	char *cause = NULL;
	ck_assert_msg(backend_oclgrind.open(target, &session, &cause) == 0,
		      "Oclgrind should open: %s", cause ? cause : "");
	struct run_options opt = { .repeat = 1 };
	struct result_sink sink = { no_begin, tally_result, got };
	runner_run_case(&backend_oclgrind, session, target, tc, 0, &opt, 0, &sink);
	bool renewed = backend_oclgrind.renew(session);
	backend_oclgrind.close(session);
	case_free(tc);
	return renewed;
}

/* Oclgrind's one target, in this process, with room for `budget` diagnostics (read at
 * the first open). */
static struct target oclgrind_with_budget(const char *budget)
{
	const char *why = backend_oclgrind.unavailable();
	ck_assert_msg(why == NULL, "This test needs Oclgrind: %s", why ? why : "");
	setenv("CLHARNESS_OCLGRIND_MAX_ERRORS", budget, 1);
	struct target *targets;
	size_t count;
	char *cause = NULL;
	ck_assert_msg(backend_oclgrind.list_targets(&targets, &count, &cause) == 0 && count == 1,
		      "Oclgrind lists its one target: %s", cause ? cause : "");
	struct target one = targets[0];
	free(targets);
	return one;
}

/* Oclgrind counts its diagnostics once a process, against one budget: a process whose
 * case logged only the kernel's findings is renewed with the count set back, so that case
 * after case gets the whole budget; one whose program did not build is not. */
START_TEST(test_oclgrind_renews_a_process_after_a_kernels_findings)
{
	/* Room for one run of same_value.yaml's 63 messages. */
	struct target target = oclgrind_with_budget("100");
	for (int i = 0; i < 3; i++) {
		struct tally got = { 0 };
		ck_assert_msg(simulate_here(&target, "cases/same_value.yaml", &got),
			      "A run with a race alone leaves a process that is renewed.");
		ck_assert_msg(got.results == 1 && got.incomplete == 0 && got.messages == 63,
			      "Case %d in one process has the whole budget: %zu results, %zu "
			      "cut short, %lu messages.",
			      i + 1, got.results, got.incomplete, got.messages);
	}
	struct tally broken = { 0 };
	ck_assert_msg(!simulate_here(&target, "cases/build_error.yaml", &broken),
		      "A program that did not build leaves its process to no other case.");
	target_free(&target);
}
END_TEST

/* The second simulation, which tells write-write races of one value apart, is asked about
 * writes alone: it checks no values, so the uninitialised values the first one reported
 * are counted once against the budget, and the race is still told apart. */
START_TEST(test_a_same_value_race_is_told_apart_within_the_budget)
{
	/* The first simulation logs 64 uninitialised values and 63 races; counting the
	 * values again would take the second past the budget, to 191 messages. */
	struct target target = oclgrind_with_budget("150");
	struct tally got = { 0 };
	simulate_here(&target, "cases/same_value_after_unset.yaml", &got);
	ck_assert_msg(got.results == 1 && got.incomplete == 0 && got.messages == 127,
		      "The run reports all it saw: %zu results, %zu cut short, %lu messages.",
		      got.results, got.incomplete, got.messages);
	ck_assert_msg(got.warnings == 1,
		      "The race of one value is a warning, told apart within the budget: %zu "
		      "warnings.",
		      got.warnings);
	target_free(&target);
}
END_TEST

Suite *dispatch_suite(void)
{
	Suite *s = suite_create("dispatch");
	TCase *tc = tcase_create("dispatch");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_each_failure_costs_one_run_and_the_rest_still_run);
	tcase_add_test(tc, test_cases_handed_out_cost_a_failure_one_run_each);
	tcase_add_test(tc, test_processes_sharing_a_claim_run_each_case_once);
	tcase_add_test(tc, test_a_simulator_worker_goes_on_while_its_process_is_renewed);
	tcase_add_test(tc, test_limits_stop_a_run_that_spins_or_allocates_too_much);
	tcase_add_test(tc, test_a_garbled_stream_is_noticed_at_once);
	tcase_add_test(tc, test_a_hang_ends_the_dispatch_under_the_run_limit);
	tcase_add_test(tc, test_a_settled_race_is_not_simulated_again);
	tcase_add_test(tc, test_oclgrind_renews_a_process_after_a_kernels_findings);
	tcase_add_test(tc, test_a_kept_worker_knows_what_its_cases_settled);
	tcase_add_test(tc, test_a_same_value_race_is_told_apart_within_the_budget);
	suite_add_tcase(s, tc);
	return s;
}
