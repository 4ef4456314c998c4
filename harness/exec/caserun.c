/* caserun.c - loaded cases run as `clharness run` runs them (caserun.h). */
#include "config.h"

#include "exec/caserun.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/claim.h"
#include "base/interrupt.h"
#include "base/util.h"
#include "exec/dispatch.h"
#include "exec/wire.h"

void case_run_open(struct case_run *cr, struct test_case *const *cases, size_t ncases,
		   struct golden_book *book, const struct suppression_list *suppressions,
		   void (*emit)(void *ctx, struct result *r), void *ctx)
{
	*cr = (struct case_run){ .cases = cases,
				 .ncases = ncases,
				 .book = book,
				 .suppressions = suppressions,
				 .emit = emit,
				 .ctx = ctx };
	cr->matched = xcalloc((suppressions ? suppressions->count : 0) + 1, sizeof *cr->matched);
	cr->case_matched = xcalloc(ncases + 1, sizeof *cr->case_matched);
	cr->case_simulated = xcalloc(ncases + 1, sizeof *cr->case_simulated);
	for (size_t i = 0; i < ncases; i++)
		cr->case_matched[i] = xcalloc(cases[i]->suppress.count + 1, sizeof **cr->case_matched);
}

/* Counts what the suppressions matched in one result. */
static void count_suppressed(struct case_run *cr, const struct result *r)
{
	for (size_t c = 0; c < cr->ncases; c++) {
		if (strcmp(cr->cases[c]->path, r->case_path) != 0)
			continue;
		cr->case_simulated[c] |= r->simulated;
		cr->simulated |= r->simulated;
		size_t global = cr->suppressions ? cr->suppressions->count : 0;
		for (size_t i = 0; i < r->findings.count; i++) {
			unsigned k = r->findings.items[i].suppressed;
			if (k == 0)
				continue;
			if (k <= global)
				cr->matched[k - 1]++;
			else if (k - 1 - global < cr->cases[c]->suppress.count)
				cr->case_matched[c][k - 1 - global]++;
		}
		return;
	}
}

static void take_result(void *ctx, struct result *r)
{
	struct case_run *cr = ctx;
	/* Outputs compared between targets first: a difference is a verdict for the golden. */
	for (size_t i = 0; i < cr->ncases && r->nkept > 0; i++)
		if (strcmp(cr->cases[i]->path, r->case_path) == 0)
			crosscheck_take(&cr->cross, cr->cases[i], r);
	count_suppressed(cr, r);
	findagree_take(&cr->agree, r);
	golden_book_take(cr->book, r);
	cr->emit(cr->ctx, r);
}

/* A reference kernel's run: its outputs kept for the case's runs; handed on only when it
 * gave none, since then the case has nothing to be compared with. */
static void take_reference(void *ctx, struct result *r)
{
	struct case_run *cr = ctx;
	for (size_t i = 0; i < cr->nrefs; i++)
		if (strcmp(cr->refs[i]->path, r->case_path) == 0)
			crosscheck_take(&cr->cross, cr->refs[i], r);
	if (r->verdict != VERDICT_PASS)
		cr->emit(cr->ctx, r);
}

void case_run_load_references(struct case_run *cr, const struct run_options *opt,
			      unsigned timeout_s)
{
	struct diag_list diags = { 0 };
	for (size_t i = 0; i < cr->ncases; i++) {
		struct test_case *ref = case_load_reference(cr->cases[i], &diags);
		if (ref == NULL)
			continue;
		cr->refs = xreallocarray(cr->refs, cr->nrefs + 1, sizeof *cr->refs);
		cr->refs[cr->nrefs++] = ref;
	}
	diag_list_free(&diags); /* the case itself loaded: its reference loads the same */
	if (cr->nrefs == 0)
		return;
	char *cpu[] = { "cpu" };
	selection_open(&cr->ref_sel, cpu, 1, cr->refs, cr->nrefs, opt, timeout_s);
	cr->refs_to_run = cr->ref_sel.count > 0;
}

/* Runs the loaded reference kernels here, now, if they have yet to run. */
static void run_references_here(struct case_run *cr)
{
	if (cr->refs_to_run)
		selection_run(&cr->ref_sel, 0, take_reference, cr);
	cr->refs_to_run = false;
}

void case_run_references(struct case_run *cr, const struct run_options *opt, unsigned timeout_s)
{
	case_run_load_references(cr, opt, timeout_s);
	run_references_here(cr);
}

void case_run_target(struct case_run *cr, struct selection *sel, size_t t)
{
	selection_run(sel, t, take_result, cr);
}

/* A part of the work (some cases on one target) run in a forked copy of this process: its
 * results go, as the frames a worker sends, to a file of its own (a pipe would stop it
 * once full, until the parts before it were handed on), and the pipe child_start gives
 * ends when it does. */
struct part {
	size_t target;
	size_t from, to; /* its cases */
	int results;	 /* the file, unlinked; -1 before it starts */
	pid_t pid;
	int done; /* child_start's pipe: end of file once the child has finished */
	int status;
	enum { PART_WAITING, PART_RUNNING, PART_FINISHED, PART_HERE } state;
	struct selection *sel;
	bool reference; /* the reference kernels' runs, on their CPU device */
	/* A runner: it takes the target's cases one at a time from the claim it shares with
	 * the other runners of the target (from and to span them all); NULL: a fixed part. */
	struct claim *claim;
	size_t runners; /* on a target's first runner: how many it has */
};

static void write_result_frame(void *ctx, struct result *r)
{
	const struct part *p = ctx;
	struct strbuf frame = { 0 };
	wire_result(&frame, r);
	if (!write_all(p->results, frame.data, frame.len))
		_exit(3); /* the results cannot be handed on: the parent reports them lost */
	strbuf_free(&frame);
}

static void run_part(void *ctx, int fd)
{
	(void)fd;
	struct part *p = ctx;
	if (p->claim) {
		size_t index;
		struct dispatcher *d = selection_dispatcher(p->sel, p->target, &index);
		dispatch_run_claimed(d, index, p->claim, write_result_frame, p);
	} else {
		selection_run_cases(p->sel, p->target, p->from, p->to, write_result_frame, p);
	}
}

/* Starts part `k` in a child; the parent's pipes and files of the other parts are closed
 * there. Returns -1 when its file cannot be made: it then runs here, in its turn. */
static int part_start(struct part *parts, size_t nparts, size_t k)
{
	struct part *p = &parts[k];
	char *path = temp_path("part");
	p->results = mkstemp(path);
	if (p->results >= 0)
		unlink(path);
	free(path);
	if (p->results < 0)
		return -1;
	int *others = xcalloc(2 * nparts, sizeof *others);
	size_t nothers = 0;
	for (size_t i = 0; i < nparts; i++) {
		if (i == k)
			continue;
		if (parts[i].state == PART_RUNNING)
			others[nothers++] = parts[i].done;
		if (parts[i].results >= 0)
			others[nothers++] = parts[i].results;
	}
	p->pid = child_start(run_part, p, others, nothers, &p->done);
	p->state = PART_RUNNING;
	free(others);
	return 0;
}

/* Reaps a part whose pipe has ended. */
static void part_reap(struct part *p)
{
	if (interrupt_signal())
		kill(p->pid, SIGKILL);
	while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
		;
	interrupt_untrack(p->pid);
	close(p->done);
	p->state = PART_FINISHED;
}

/* What a finished part wrote, read back whole (*len bytes; NULL when empty or unreadable);
 * its file is closed. */
static char *part_frames(struct part *p, size_t *len)
{
	off_t size = lseek(p->results, 0, SEEK_END);
	char *frames = size > 0 ? xmalloc((size_t)size) : NULL;
	bool whole = size >= 0 && lseek(p->results, 0, SEEK_SET) == 0 &&
		     (size == 0 || read_all(p->results, frames, (size_t)size));
	close(p->results);
	p->results = -1;
	*len = whole && size > 0 ? (size_t)size : 0;
	if (*len == 0) {
		free(frames);
		frames = NULL;
	}
	return frames;
}

/* Calls take(ctx, r) for each result among `len` bytes of frames, in order. */
static void each_result(const char *frames, size_t len, void (*take)(void *ctx, struct result *r),
			void *ctx)
{
	size_t at = 0;
	while (at < len) {
		enum frame_type type;
		const char *payload;
		size_t payload_len;
		long n = wire_split(frames + at, len - at, &type, &payload, &payload_len);
		if (n <= 0)
			break;
		struct result r;
		if (type == FRAME_RESULT && wire_read_result(payload, payload_len, &r) == 0) {
			take(ctx, &r);
			result_free(&r);
		}
		at += (size_t)n;
	}
}

/* Says on stderr that a part's process ended before its work did. */
static void part_ended_early(const struct part *p, const char *what)
{
	int status = p->status;
	if (!interrupt_signal() && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		fprintf(stderr,
			"clharness: the process that ran %s on %s ended early (%s %d): its "
			"results after those reported are missing\n",
			what, selection_target(p->sel, p->target)->name,
			WIFSIGNALED(status) ? "signal" : "status",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/* Hands a finished part's results on in the order it made them: what the parent would
 * have got running it itself. A child that died early leaves the results it had written;
 * the runs it did not finish are said to be lost. */
static void part_hand_on(struct case_run *cr, struct part *p)
{
	size_t len;
	char *frames = part_frames(p, &len);
	each_result(frames, len, p->reference ? take_reference : take_result, cr);
	free(frames);
	char what[64];
	if (p->reference)
		snprintf(what, sizeof what, "the reference kernels");
	else
		snprintf(what, sizeof what, "cases %zu to %zu", p->from + 1, p->to);
	part_ended_early(p, what);
}

/* The results of a target's runners, sorted back into the cases' order. */
struct sorted_results {
	const struct case_run *cr;
	struct result **of_case; /* the results of each case, in the order they came */
	size_t *count;
	size_t last; /* the case the last result was of: a runner's next is of it or later */
};

/* Takes a result over (its fields move out of r) into its case's list. The cases' paths
 * are their own (the list holds a file once), found from the last result's case on. */
static void sort_result(void *ctx, struct result *r)
{
	struct sorted_results *sr = ctx;
	size_t n = sr->cr->ncases, c = n;
	for (size_t k = 0; k < n && c == n; k++) {
		size_t i = (sr->last + k) % n;
		if (r->case_path && strcmp(sr->cr->cases[i]->path, r->case_path) == 0)
			c = i;
	}
	if (c == n)
		return; /* of no case of this run: nothing a worker of it sends */
	sr->last = c;
	sr->of_case[c] = xreallocarray(sr->of_case[c], sr->count[c] + 1, sizeof **sr->of_case);
	sr->of_case[c][sr->count[c]++] = *r;
	*r = (struct result){ 0 };
}

static void keep_lost(void *ctx, struct result *r)
{
	struct result *kept = ctx;
	*kept = *r;
	*r = (struct result){ 0 };
}

/* Whether any of a target's `n` runners has yet to start or to finish. */
static bool runners_busy(const struct part *runners, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (runners[k].state == PART_WAITING || runners[k].state == PART_RUNNING)
			return true;
	return false;
}

/* Hands on the results of a target's `n` runners, all finished (those that could not
 * start having run here), case by case in the cases' order. A case with no result at
 * all, its runner gone between taking it and reporting, is reported lost, never left out. */
static void runners_hand_on(struct case_run *cr, struct part *runners, size_t n)
{
	struct sorted_results sr = { .cr = cr,
				     .of_case = xcalloc(cr->ncases + 1, sizeof *sr.of_case),
				     .count = xcalloc(cr->ncases + 1, sizeof *sr.count) };
	size_t index;
	struct dispatcher *d = selection_dispatcher(runners[0].sel, runners[0].target, &index);
	for (size_t k = 0; k < n; k++) {
		struct part *p = &runners[k];
		sr.last = 0;
		if (p->state == PART_HERE) {
			dispatch_run_claimed(d, index, p->claim, sort_result, &sr);
			continue;
		}
		size_t len;
		char *frames = part_frames(p, &len);
		each_result(frames, len, sort_result, &sr);
		free(frames);
		part_ended_early(p, "cases handed out");
	}
	for (size_t c = 0; c < cr->ncases && !interrupt_signal(); c++) {
		if (sr.count[c] == 0) {
			struct result lost = { 0 };
			dispatch_report_lost(d, index, c,
					     "no result: the process that took this case ended "
					     "before its worker reported",
					     keep_lost, &lost);
			take_result(cr, &lost);
			result_free(&lost);
		}
		for (size_t i = 0; i < sr.count[c]; i++) {
			take_result(cr, &sr.of_case[c][i]);
			result_free(&sr.of_case[c][i]);
		}
		free(sr.of_case[c]);
	}
	free(sr.of_case);
	free(sr.count);
}

/* Waits until a running part's pipe ends, and reaps it. */
static void part_wait_any(struct part *parts, size_t nparts)
{
	struct pollfd *fds = xcalloc(nparts, sizeof *fds);
	size_t *which = xcalloc(nparts, sizeof *which);
	size_t n = 0;
	for (size_t i = 0; i < nparts; i++)
		if (parts[i].state == PART_RUNNING) {
			fds[n] = (struct pollfd){ .fd = parts[i].done, .events = POLLIN };
			which[n++] = i;
		}
	while (n > 0) {
		int ready = poll(fds, n, -1);
		if (ready < 0 && errno == EINTR && !interrupt_signal())
			continue;
		bool reaped = false;
		for (size_t k = 0; k < n; k++) {
			if (!interrupt_signal() && !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char byte;
			ssize_t got = interrupt_signal() ? 0 : read(fds[k].fd, &byte, 1);
			if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
				part_reap(&parts[which[k]]);
				reaped = true;
			}
		}
		if (reaped)
			break;
	}
	free(which);
	free(fds);
}

/* Whether a target runs all its cases in one process: any device but a CPU one or the
 * simulator, since each process there opens a context of its own (on an H200, sixteen
 * took 10 s where one took 3). */
static bool whole_target(const struct selection *sel, size_t t)
{
	const struct target *target = selection_target(sel, t);
	return !selection_can(sel, t, CAN_ONLY_FRESH_SESSIONS) &&
	       (target->type == NULL || strcmp(target->type, "cpu") != 0);
}

/* How the work is cut into parts where its cases cannot be handed out (see runner_count):
 * on a simulator a case each, its simulation being the work; a whole target in one; on a
 * CPU device, whose kernels run on the cores the parts share, about four parts a job. */
static size_t part_size(const struct selection *sel, size_t t, size_t ncases, unsigned jobs)
{
	if (selection_can(sel, t, CAN_ONLY_FRESH_SESSIONS))
		return 1;
	if (whole_target(sel, t))
		return ncases ? ncases : 1;
	size_t size = (ncases + 4 * (size_t)jobs - 1) / (4 * (size_t)jobs);
	return size ? size : 1;
}

/* How many runners share a CPU device's or the simulator's cases out, taking one at a
 * time as each becomes free: one a job, at most one a case; 0 for any other target. Parts
 * of fixed ranges, four a job, cost a cold catalogue run its balance (one part held 12 s
 * of PoCL's builds, the other core idle at the end) and a compiler start in each (PoCL
 * loads its kernel library anew in every process: 0.6 s). A simulator's runner keeps its
 * worker for the next case while the backend can renew its process (dispatch_run_claimed),
 * where a part a case cost two processes a case. */
static size_t runner_count(const struct selection *sel, size_t t, size_t ncases, unsigned jobs)
{
	if (whole_target(sel, t) || ncases < 2)
		return 0;
	return jobs < ncases ? jobs : ncases;
}

void case_run_targets(struct case_run *cr, struct selection *sel, unsigned jobs)
{
	if (jobs <= 1 || cr->ncases == 0) {
		run_references_here(cr);
		for (size_t t = 0; t < sel->count && !interrupt_signal(); t++)
			case_run_target(cr, sel, t);
		return;
	}
	selection_release_idle(sel);
	struct part *parts = NULL;
	size_t nparts = 0;
	/* The reference kernels run in a part of their own, the first handed on, so that
	 * their outputs are in before any case's result is compared with them. It runs
	 * beside the targets' first parts: run before them, it kept the other core idle for
	 * the first 1.7 s of a cold catalogue run. */
	if (cr->refs_to_run) {
		selection_release_idle(&cr->ref_sel);
		parts = xcalloc(1, sizeof *parts);
		parts[nparts++] = (struct part){ .to = cr->nrefs,
						 .results = -1,
						 .done = -1,
						 .sel = &cr->ref_sel,
						 .reference = true };
		cr->refs_to_run = false;
	}
	for (size_t t = 0; t < sel->count; t++) {
		size_t runners = runner_count(sel, t, cr->ncases, jobs);
		/* Where no memory can be shared for handing cases out: fixed parts. */
		struct claim *claim = runners > 0 ? claim_new() : NULL;
		if (claim == NULL)
			runners = 0;
		for (size_t r = 0; r < runners; r++) {
			parts = xreallocarray(parts, nparts + 1, sizeof *parts);
			parts[nparts++] = (struct part){ .target = t,
							 .to = cr->ncases,
							 .results = -1,
							 .done = -1,
							 .sel = sel,
							 .claim = claim,
							 .runners = r == 0 ? runners : 0 };
		}
		size_t size = part_size(sel, t, cr->ncases, jobs);
		for (size_t from = 0; runners == 0 && from < cr->ncases; from += size) {
			parts = xreallocarray(parts, nparts + 1, sizeof *parts);
			parts[nparts++] = (struct part){
				.target = t,
				.from = from,
				.to = from + size < cr->ncases ? from + size : cr->ncases,
				.results = -1,
				.done = -1,
				.sel = sel,
			};
		}
	}
	/* Parts start the references first, then a whole device (a GPU's, which leaves the
	 * cores to the rest), then the simulator's, their cases being the slow ones, so that
	 * the quick CPU device parts fill the cores at the end; they are handed on in the
	 * order of one target after another all the same. */
	size_t *order = xcalloc(nparts ? nparts : 1, sizeof *order);
	size_t norder = 0;
	for (int pass = 0; pass < 4; pass++)
		for (size_t k = 0; k < nparts; k++) {
			size_t t = parts[k].target;
			int rank = parts[k].reference		 ? 0
				   : whole_target(sel, t)	 ? 1
				   : selection_can(sel, t, CAN_ONLY_FRESH_SESSIONS) ? 2
								 : 3;
			if (rank == pass)
				order[norder++] = k;
		}
	size_t next_start = 0, next_hand_on = 0, running = 0;
	while (next_hand_on < nparts && !interrupt_signal()) {
		while (running < jobs && next_start < norder) {
			size_t k = order[next_start++];
			if (part_start(parts, nparts, k) == 0)
				running++;
			else
				parts[k].state = PART_HERE;
		}
		struct part *p = &parts[next_hand_on];
		if (p->claim && !runners_busy(p, p->runners)) {
			runners_hand_on(cr, p, p->runners);
			next_hand_on += p->runners;
		} else if (!p->claim && p->state == PART_FINISHED) {
			part_hand_on(cr, p);
			next_hand_on++;
		} else if (!p->claim && p->state == PART_HERE) {
			selection_run_cases(p->sel, p->target, p->from, p->to,
					    p->reference ? take_reference : take_result, cr);
			next_hand_on++;
		} else if (running > 0) {
			part_wait_any(parts, nparts);
			running = 0;
			for (size_t k = 0; k < nparts; k++)
				running += parts[k].state == PART_RUNNING;
		} else {
			break; /* not started: only an interrupt leaves one so */
		}
	}
	/* Interrupted: what still runs is stopped, and what is done is dropped. */
	for (size_t k = 0; k < nparts; k++) {
		if (parts[k].state == PART_RUNNING)
			part_reap(&parts[k]);
		if (parts[k].results >= 0)
			close(parts[k].results);
		if (parts[k].runners > 0)
			claim_free(parts[k].claim);
	}
	free(order);
	free(parts);
}

static void warn_unmatched(const struct suppression *s)
{
	char *what = suppression_text(s);
	fprintf(stderr, "%s:%d:%d: warning: this suppression matched no finding (%s)\n", s->file,
		s->pos.line, s->pos.col, what);
	free(what);
}

void case_run_finish(struct case_run *cr)
{
	golden_book_unseen(cr->book, cr->emit, cr->ctx);
	/* A suppression that matched nothing is stale or mistyped: said for those that had
	 * a simulated run to match. */
	const struct suppression_list *own = cr->suppressions;
	for (size_t i = 0; own && cr->simulated && i < own->count; i++)
		if (cr->matched[i] == 0)
			warn_unmatched(&own->items[i]);
	for (size_t c = 0; c < cr->ncases; c++)
		for (size_t i = 0; cr->case_simulated[c] && i < cr->cases[c]->suppress.count; i++)
			if (cr->case_matched[c][i] == 0)
				warn_unmatched(&cr->cases[c]->suppress.items[i]);
}

void case_run_close(struct case_run *cr)
{
	for (size_t i = 0; cr->case_matched && i < cr->ncases; i++)
		free(cr->case_matched[i]);
	free(cr->case_matched);
	free(cr->case_simulated);
	free(cr->matched);
	crosscheck_free(&cr->cross);
	findagree_free(&cr->agree);
	if (cr->nrefs > 0)
		selection_free(&cr->ref_sel);
	for (size_t i = 0; i < cr->nrefs; i++)
		case_free(cr->refs[i]);
	free(cr->refs);
	*cr = (struct case_run){ 0 };
}
