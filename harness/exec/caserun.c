/* caserun.c - loaded cases run as `clharness run` runs them (caserun.h). */
#include "config.h"

#include "exec/caserun.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/interrupt.h"
#include "base/util.h"
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

void case_run_references(struct case_run *cr, const struct run_options *opt, unsigned timeout_s)
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
	struct selection sel;
	selection_open(&sel, cpu, 1, cr->refs, cr->nrefs, opt, timeout_s);
	if (sel.count > 0)
		selection_run(&sel, 0, take_reference, cr);
	selection_free(&sel);
}

void case_run_target(struct case_run *cr, struct selection *sel, size_t t)
{
	selection_run(sel, t, take_result, cr);
}

/* A target run ahead in a forked copy of this process: its results go, as the frames a
 * worker sends, to a file of its own (a pipe would stop it once full, until the targets
 * before it were done), and the pipe child_start gives ends when it does. */
struct ahead {
	struct selection *sel;
	size_t target;
	int results; /* the file, unlinked */
	pid_t pid;
	int done; /* child_start's pipe: end of file once the child has finished */
};

static void write_result_frame(void *ctx, struct result *r)
{
	const struct ahead *a = ctx;
	struct strbuf frame = { 0 };
	wire_result(&frame, r);
	if (!write_all(a->results, frame.data, frame.len))
		_exit(3); /* the results cannot be handed on: the parent reports them lost */
	strbuf_free(&frame);
}

static void run_ahead(void *ctx, int fd)
{
	(void)fd;
	struct ahead *a = ctx;
	selection_run(a->sel, a->target, write_result_frame, a);
}

static int ahead_start(struct ahead *a, struct selection *sel, size_t t, const int *others,
		       size_t nothers)
{
	char *path = temp_path("target");
	a->results = mkstemp(path);
	if (a->results >= 0)
		unlink(path);
	free(path);
	if (a->results < 0)
		return -1;
	a->sel = sel;
	a->target = t;
	a->pid = child_start(run_ahead, a, others, nothers, &a->done);
	return 0;
}

/* Waits for a target run ahead and hands its results on in the order it made them: what
 * the parent would have got running it itself. A child that died early leaves the
 * results it had written; the runs it did not finish are said to be lost. */
static void ahead_finish(struct case_run *cr, struct ahead *a)
{
	for (;;) {
		char byte;
		ssize_t n = read(a->done, &byte, 1);
		if (n > 0 || (n < 0 && errno == EINTR && !interrupt_signal()))
			continue;
		break;
	}
	if (interrupt_signal())
		kill(a->pid, SIGKILL);
	int status = 0;
	while (waitpid(a->pid, &status, 0) < 0 && errno == EINTR)
		;
	interrupt_untrack(a->pid);
	close(a->done);
	off_t len = lseek(a->results, 0, SEEK_END);
	char *frames = len > 0 ? xmalloc((size_t)len) : NULL;
	bool whole = len >= 0 && lseek(a->results, 0, SEEK_SET) == 0 &&
		     (len == 0 || read_all(a->results, frames, (size_t)len));
	close(a->results);
	size_t at = 0;
	while (whole && at < (size_t)len) {
		enum frame_type type;
		const char *payload;
		size_t payload_len;
		long n = wire_split(frames + at, (size_t)len - at, &type, &payload, &payload_len);
		if (n <= 0)
			break;
		struct result r;
		if (type == FRAME_RESULT && wire_read_result(payload, payload_len, &r) == 0) {
			take_result(cr, &r);
			result_free(&r);
		}
		at += (size_t)n;
	}
	free(frames);
	if (!interrupt_signal() && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		fprintf(stderr,
			"clharness: the process that ran target %zu ended early (%s %d): its "
			"results after those reported are missing\n",
			a->target, WIFSIGNALED(status) ? "signal" : "status",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

void case_run_targets(struct case_run *cr, struct selection *sel, unsigned jobs)
{
	size_t t = 0;
	while (t < sel->count && !interrupt_signal()) {
		/* Targets t + 1 onwards, as many as the jobs allow, each in a copy of this
		 * process, while this one runs target t. */
		size_t batch = sel->count - t < jobs ? sel->count - t : (jobs ? jobs : 1);
		struct ahead *ahead = xcalloc(batch, sizeof *ahead);
		int *done = xcalloc(batch, sizeof *done);
		size_t started = 0;
		for (size_t k = 1; k < batch; k++) {
			if (ahead_start(&ahead[k], sel, t + k, done, started) < 0)
				break;
			done[started++] = ahead[k].done;
		}
		case_run_target(cr, sel, t);
		for (size_t k = 1; k <= started; k++)
			ahead_finish(cr, &ahead[k]);
		/* A target whose file could not be made runs here, after the others. */
		for (size_t k = started + 1; k < batch && !interrupt_signal(); k++)
			case_run_target(cr, sel, t + k);
		free(done);
		free(ahead);
		t += batch;
	}
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
	for (size_t i = 0; i < cr->nrefs; i++)
		case_free(cr->refs[i]);
	free(cr->refs);
	*cr = (struct case_run){ 0 };
}
