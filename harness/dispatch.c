/* dispatch.c - runs cases on targets through worker processes. */
#include "config.h"

#include "dispatch.h"

#include <stdbool.h>
#include <stdlib.h>

#include "util.h"
#include "wire.h"
#include "worker.h"

#define NS_PER_S 1000000000ull

struct list_job {
	const struct backend *backend;
};

static void list_main(void *arg, int fd)
{
	const struct list_job *job = arg;
	struct strbuf out = {0};
	struct target *targets;
	size_t count;
	char *cause = NULL;
	if (job->backend->list_targets(&targets, &count, &cause) < 0) {
		wire_message(&out, FRAME_ERROR, cause);
	} else {
		for (size_t i = 0; i < count; i++)
			wire_target(&out, &targets[i]);
		wire_message(&out, FRAME_END, "");
	}
	worker_send(fd, &out);
	strbuf_free(&out);
}

int dispatch_list_targets(const struct backend *b, unsigned timeout_s, struct target **targets,
			  size_t *count, char **cause)
{
	*targets = NULL;
	*count = 0;
	struct list_job job = {b};
	struct worker w;
	if (worker_start(&w, list_main, &job, cause) < 0)
		return -1;
	uint64_t deadline = clock_now_ns() + timeout_s * NS_PER_S;
	int status = -1;
	for (;;) {
		enum frame_type type;
		const char *payload;
		size_t len;
		enum worker_event ev = worker_next(&w, deadline, &type, &payload, &len);
		if (ev == WORKER_TIMEOUT) {
			*cause = xasprintf("listing %s devices took over %u s", b->name, timeout_s);
			break;
		}
		if (ev == WORKER_GONE) {
			char *how = worker_finish(&w, false);
			*cause = xasprintf("listing %s devices failed: the worker %s", b->name,
					   how ? how : "ended early");
			free(how);
			return -1;
		}
		if (type == FRAME_TARGET) {
			*targets = xreallocarray(*targets, *count + 1, sizeof **targets);
			if (wire_read_target(payload, len, &(*targets)[*count]) == 0)
				(*count)++;
		} else if (type == FRAME_ERROR) {
			wire_read_message(payload, len, cause);
			break;
		} else if (type == FRAME_END) {
			status = 0;
			break;
		}
	}
	free(worker_finish(&w, status < 0));
	return status;
}

struct run_job {
	const struct backend *backend;
	const struct target *target;
	struct test_case *const *cases;
	size_t ncases;
	const struct run_options *opt;
	size_t first_case;
	size_t first_run;
	int fd;
	struct strbuf out;
};

static void job_begin(void *ctx, size_t case_index, size_t run)
{
	struct run_job *job = ctx;
	wire_begin(&job->out, case_index, run, worker_output_offset());
	worker_send(job->fd, &job->out);
}

static void job_emit(void *ctx, struct result *r)
{
	struct run_job *job = ctx;
	wire_result(&job->out, r);
	worker_send(job->fd, &job->out);
}

static void run_main(void *arg, int fd)
{
	struct run_job *job = arg;
	job->fd = fd;
	job->out = (struct strbuf){0};
	struct backend_session *session;
	char *cause = NULL;
	if (job->backend->open(job->target, &session, &cause) < 0) {
		wire_message(&job->out, FRAME_ERROR, cause);
		worker_send(fd, &job->out);
		return;
	}
	struct result_sink sink = {job_begin, job_emit, job};
	for (size_t c = job->first_case; c < job->ncases; c++) {
		if (runner_run_case(job->backend, session, job->target, job->cases[c], c, job->opt,
				    c == job->first_case ? job->first_run : 0, &sink) == BACKEND_LOST)
			return; /* no END: the parent starts a fresh worker after the reported run */
	}
	job->backend->close(session);
	wire_message(&job->out, FRAME_END, "");
	worker_send(fd, &job->out);
	strbuf_free(&job->out);
}

/* Reports that run (c, run) ended without a result, as `verdict` with `message` and,
 * as its detail, the end of what the worker printed (a driver's last words). */
static void lost_run(const struct run_job *job, size_t c, size_t run, enum verdict verdict,
		     const char *message, const char *printed,
		     void (*emit)(void *ctx, struct result *r), void *ctx)
{
	const struct test_case *tc = job->cases[c];
	long long n = 0, l = 0;
	if (run > 0)
		runner_run_shape(tc, job->opt, run, &n, &l);
	struct result r;
	runner_result_init(&r, job->backend, job->target, tc, n, l);
	result_set_diag(&r, verdict, tc->path, 0, 0, "%s", message);
	r.detail = printed ? xstrdup(printed) : NULL;
	emit(ctx, &r);
	result_free(&r);
}

void dispatch_run(const struct backend *b, const struct target *t, struct test_case *const *cases,
		  size_t ncases, const struct run_options *opt, unsigned timeout_s,
		  void (*emit)(void *ctx, struct result *r), void *ctx)
{
	struct run_job job = {.backend = b, .target = t, .cases = cases, .ncases = ncases, .opt = opt};
	while (job.first_case < ncases) {
		struct worker w;
		char *cause = NULL;
		if (worker_start(&w, run_main, &job, &cause) < 0) {
			for (size_t c = job.first_case; c < ncases; c++)
				lost_run(&job, c, 0, VERDICT_CRASH, cause, NULL, emit, ctx);
			free(cause);
			return;
		}
		size_t cur_case = job.first_case, cur_run = job.first_run;
		uint64_t deadline = clock_now_ns() + timeout_s * NS_PER_S;
		bool finished = false;
		bool reported = false; /* the current run's result has arrived */
		bool ended = false;    /* the worker left without finishing */
		char *lost = NULL;
		char *printed = NULL;
		enum verdict lost_verdict = VERDICT_CRASH;

		while (!finished && !ended) {
			enum frame_type type;
			const char *payload;
			size_t len;
			enum worker_event ev = worker_next(&w, deadline, &type, &payload, &len);
			/* A worker that leaves after reporting its run (one whose session was lost
			 * does) owes nothing; one that leaves before has lost that run. */
			if (ev == WORKER_TIMEOUT) {
				printed = worker_output_tail(&w, 2000);
				free(worker_finish(&w, true));
				ended = true;
				lost_verdict = VERDICT_TIMEOUT;
				if (!reported)
					lost = xasprintf("no result after %u s: the kernel hangs or is too slow, so "
							 "its worker was killed (raise --timeout if it is only slow)",
							 timeout_s);
			} else if (ev == WORKER_GONE) {
				printed = worker_output_tail(&w, 2000);
				char *how = worker_finish(&w, false);
				ended = true;
				if (!reported)
					lost = xasprintf("the worker running this died: %s; the OpenCL driver or "
							 "the kernel crashed", how ? how : "it exited without finishing");
				free(how);
			} else if (type == FRAME_BEGIN) {
				long long printed_before = 0;
				wire_read_begin(payload, len, &cur_case, &cur_run, &printed_before);
				worker_mark_output(&w, printed_before);
				deadline = clock_now_ns() + timeout_s * NS_PER_S;
				reported = false;
			} else if (type == FRAME_RESULT) {
				struct result r;
				if (wire_read_result(payload, len, &r) == 0) {
					emit(ctx, &r);
					result_free(&r);
				}
				reported = true;
			} else if (type == FRAME_ERROR) {
				char *message = NULL;
				wire_read_message(payload, len, &message);
				char *text = xasprintf("cannot open %s: %s", t->name, message);
				for (size_t c = cur_case; c < ncases; c++)
					lost_run(&job, c, 0, VERDICT_CRASH, text, NULL, emit, ctx);
				free(text);
				free(message);
				free(worker_finish(&w, true));
				return;
			} else if (type == FRAME_END) {
				free(worker_finish(&w, false));
				finished = true;
			}
		}
		if (finished)
			return;

		if (lost)
			lost_run(&job, cur_case, cur_run, lost_verdict, lost, printed, emit, ctx);
		free(lost);
		free(printed);
		/* Resume after the run it left in: the next size of the same case, or the next
		 * case when the build itself was lost or the case has no runs left. */
		if (cur_run > 0 && cur_run + 1 < runner_run_count(cases[cur_case], opt)) {
			job.first_case = cur_case;
			job.first_run = cur_run + 1;
		} else {
			job.first_case = cur_case + 1;
			job.first_run = 0;
		}
	}
}
