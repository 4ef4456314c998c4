/* dispatch.c - runs cases on targets through worker processes. */
#include "config.h"

#include "exec/dispatch.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/claim.h"
#include "base/interrupt.h"
#include "base/util.h"
#include "exec/clexec.h"
#include "exec/progcache.h"
#include "exec/sandbox.h"
#include "exec/wire.h"
#include "exec/worker.h"

#define NS_PER_S     1000000000ull
#define COMMAND_QUIT UINT32_MAX

struct dispatcher {
	const struct backend *backend;
	struct test_case *const *cases;
	size_t ncases;
	const struct run_options *opt;
	unsigned timeout_s;
	struct target *targets;
	size_t ntargets;
	struct worker idle; /* the listing worker, waiting for its first target */
	bool has_idle;
};

/* The limits every worker of these options runs under. */
static struct worker_limits limits_of(const struct run_options *opt)
{
	return (struct worker_limits){ opt->cpu_limit_s, opt->address_space_limit,
				       opt->file_size_limit };
}

/* What one worker runs: every case on one target from (first_case, first_run) on. */
struct run_job {
	const struct backend *backend;
	const struct target *target;
	struct test_case *const *cases;
	size_t ncases;
	const struct run_options *opt;
	size_t first_case;
	size_t first_run;
	size_t end_case; /* the cases it runs end before this one */
	/* Where cases are handed out one at a time (dispatch_run_claimed): the worker asks
	 * for the next after each, and its parent takes it from here. NULL: every case from
	 * first_case on, in order. */
	struct claim *claim;
	int fd;
	struct strbuf out;
	bool timed_out; /* a run of it timed out (run_options.stop_at_timeout) */
	long long stdout_mark; /* in a worker: stdout's size when the current run began */
};

/* What a run's kernels may print, shown with it: enough for a student's debugging
 * printf, not a flood. */
enum { PRINTED_MAX = 4096 };

static void job_begin(void *ctx, size_t case_index, size_t run)
{
	struct run_job *job = ctx;
	job->stdout_mark = worker_stdout_offset();
	wire_begin(&job->out, case_index, run, worker_output_offset());
	worker_send(job->fd, &job->out);
}

static void job_emit(void *ctx, struct result *r)
{
	struct run_job *job = ctx;
	if (r->printed == NULL)
		r->printed = worker_stdout_since(job->stdout_mark, PRINTED_MAX);
	wire_result(&job->out, r);
	worker_send(job->fd, &job->out);
}

/* In a worker: the case to run after c: the next one, or, where cases are handed out,
 * the one the parent names when asked (end_case when none is left). */
static size_t next_case(struct run_job *job, size_t c, int control)
{
	if (job->claim == NULL)
		return c + 1;
	wire_message(&job->out, FRAME_NEXT, "");
	worker_send(job->fd, &job->out);
	uint32_t next;
	if (worker_receive(control, &next) < 0 || next == COMMAND_QUIT || next >= job->end_case)
		return job->end_case;
	return next;
}

/* In a worker, after a simulator's case: closes its session and opens another for the
 * next case where the backend could renew the process (backend.renew). Returns false when
 * the next case needs a fresh worker. */
static bool session_again(const struct run_job *job, struct backend_session **session)
{
	const struct backend *b = job->backend;
	bool again = b->renew && b->renew(*session);
	b->close(*session);
	*session = NULL;
	char *cause = NULL;
	if (again && b->open(job->target, session, &cause) == 0)
		return true;
	free(cause); /* a fresh worker says why, if it cannot open either */
	return false;
}

/* Has the backend set its drivers' environment, first thing in a worker. */
static void prepare_worker(const struct backend *b, const struct run_options *opt)
{
	struct worker_setup setup = { .timed = opt->timed, .private_cache = opt->private_cache };
	if (opt->private_cache) {
		char *own = xasprintf("%s/programs", opt->private_cache);
		progcache_set_private(own);
		free(own);
	}
	clexec_keep_programs_whole(opt->keep_programs_whole);
	if (b->prepare_worker)
		b->prepare_worker(&setup);
}

/* In a worker, before any call of its driver: confines it to what its driver and the
 * kernels it may build need (each step's kernel of `cases`, and the kernel at `path`
 * built with `options`), where its backend runs kernels natively. Returns -1 with *cause
 * when the sandbox cannot go up. */
static int confine_worker(const struct backend *b, const struct run_options *opt,
			  struct test_case *const *cases, size_t ncases, const char *path,
			  const char *options, char **cause)
{
	if (!sandbox_wanted(backend_can(b, CAN_RUN_NATIVE_CODE), opt->unsandboxed))
		return 0;
	struct sandbox_policy p = { 0 };
	sandbox_policy_add_system(&p);
	for (size_t c = 0; c < ncases; c++)
		for (size_t s = 0; s < cases[c]->nsteps; s++)
			sandbox_policy_add_sources(&p, cases[c]->steps[s].kernel_path,
						   cases[c]->options, !opt->untrusted);
	if (path)
		sandbox_policy_add_sources(&p, path, options, !opt->untrusted);
	int status = sandbox_enter(&p, cause);
	sandbox_policy_free(&p);
	if (status < 0) {
		char *why = *cause;
		*cause = xasprintf("the sandbox could not go up: %s (CLHARNESS_SANDBOX=off runs "
				   "without it)",
				   why);
		free(why);
	}
	return status;
}

/* In a worker whose driver is set up and has run no kernel yet. */
static int seal_worker(char **cause)
{
	if (sandbox_seal(cause) == 0)
		return 0;
	char *why = *cause;
	*cause = xasprintf("the sandbox could not be sealed: %s", why);
	free(why);
	return -1;
}

/* In a worker: runs the job, sending its news on fd; asks for cases on control where they
 * are handed out. */
static void run_cases(struct run_job *job, int fd, int control)
{
	job->fd = fd;
	job->out = (struct strbuf){ 0 };
	struct backend_session *session;
	char *cause = NULL;
	if (job->backend->open(job->target, &session, &cause) < 0) {
		wire_message(&job->out, FRAME_ERROR, cause);
		worker_send(fd, &job->out);
		return;
	}
	if (seal_worker(&cause) < 0) {
		job->backend->close(session);
		wire_message(&job->out, FRAME_ERROR, cause);
		worker_send(fd, &job->out);
		return;
	}
	struct result_sink sink = { job_begin, job_emit, job };
	for (size_t c = job->first_case; c < job->end_case; c = next_case(job, c, control)) {
		if (runner_run_case(job->backend, session, job->target, job->cases[c], c, job->opt,
				    c == job->first_case ? job->first_run : 0,
				    &sink) == BACKEND_LOST)
			return; /* no END: the parent starts a fresh worker after the reported run
				 */
		bool more = job->claim != NULL || c + 1 < job->end_case;
		if (backend_can(job->backend, CAN_ONLY_FRESH_SESSIONS) && more && !session_again(job, &session)) {
			/* A fresh worker goes on with the next case; where cases are handed
			 * out, the parent hands it the next one. */
			if (job->claim == NULL)
				wire_resume(&job->out, c + 1);
			else
				wire_message(&job->out, FRAME_END, "");
			worker_send(fd, &job->out);
			strbuf_free(&job->out);
			return;
		}
	}
	job->backend->close(session);
	wire_message(&job->out, FRAME_END, "");
	worker_send(fd, &job->out);
	strbuf_free(&job->out);
}

/* Tells the parent why the worker cannot run anything. */
static void worker_error(int fd, char *cause)
{
	struct strbuf out = { 0 };
	wire_message(&out, FRAME_ERROR, cause);
	worker_send(fd, &out);
	strbuf_free(&out);
	free(cause);
}

static void run_main(void *arg, int fd, int control)
{
	struct run_job *job = arg;
	prepare_worker(job->backend, job->opt);
	char *cause = NULL;
	if (confine_worker(job->backend, job->opt, job->cases, job->ncases, NULL, NULL, &cause) <
	    0) {
		worker_error(fd, cause);
		return;
	}
	run_cases(job, fd, control);
}

/* The listing worker: sends the targets, then runs the one the parent asks for. */
static void list_main(void *arg, int fd, int control)
{
	const struct dispatcher *d = arg;
	prepare_worker(d->backend, d->opt);
	struct strbuf out = { 0 };
	struct target *targets;
	size_t count;
	char *cause = NULL;
	if (confine_worker(d->backend, d->opt, d->cases, d->ncases, NULL, NULL, &cause) < 0) {
		worker_error(fd, cause);
		return;
	}
	if (d->backend->list_targets(&targets, &count, &cause) < 0) {
		wire_message(&out, FRAME_ERROR, cause);
		worker_send(fd, &out);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		targets[i].capabilities = d->backend->capabilities;
		wire_target(&out, &targets[i]);
	}
	wire_message(&out, FRAME_END, "");
	worker_send(fd, &out);
	strbuf_free(&out);

	uint32_t which;
	if (worker_receive(control, &which) < 0 || which >= count)
		return;
	struct run_job job = { .backend = d->backend,
			       .target = &targets[which],
			       .cases = d->cases,
			       .ncases = d->ncases,
			       .end_case = d->ncases,
			       .opt = d->opt };
	run_cases(&job, fd, control);
}

void dispatch_hold(const struct backend *b)
{
	if (b->preload)
		b->preload();
}

void dispatch_release(const struct backend *b)
{
	if (b->unload)
		b->unload();
}

int dispatch_open(const struct backend *b, struct test_case *const *cases, size_t ncases,
		  const struct run_options *opt, unsigned timeout_s, struct dispatcher **out,
		  char **cause)
{
	dispatch_hold(b);
	struct dispatcher *d = xcalloc(1, sizeof *d);
	*d = (struct dispatcher){
		.backend = b, .cases = cases, .ncases = ncases, .opt = opt, .timeout_s = timeout_s
	};
	if (b->prepare_cases)
		b->prepare_cases(cases, ncases);
	struct worker_limits limits = limits_of(opt);
	if (worker_start(&d->idle, &limits, list_main, d, cause) < 0) {
		dispatch_close(d);
		return -1;
	}
	uint64_t deadline = clock_now_ns() + timeout_s * NS_PER_S;
	for (;;) {
		enum frame_type type;
		const char *payload;
		size_t len;
		enum worker_event ev = worker_next(&d->idle, deadline, &type, &payload, &len);
		if (ev == WORKER_TIMEOUT) {
			*cause = xasprintf("listing %s devices took over %u s", b->name, timeout_s);
			break;
		}
		if (ev == WORKER_GONE) {
			/* A driver the sandbox stopped while it set itself up says which call. */
			char *printed = worker_output_tail(&d->idle, 2000);
			struct worker_end end;
			char *how = worker_finish_end(&d->idle, false, &end);
			bool late;
			char *stop = sandbox_stopped_call(end.exit_status, printed, &late);
			*cause =
				stop ? xasprintf(
					       "listing %s devices failed: the driver made a system "
					       "call the sandbox forbids while it set itself up: "
					       "%s (CLHARNESS_SANDBOX=off runs without the sandbox)",
					       b->name, stop)
				     : xasprintf("listing %s devices failed: the worker %s",
						 b->name, how ? how : "ended early");
			free(stop);
			free(how);
			free(printed);
			break;
		}
		if (ev == WORKER_GARBLED) {
			*cause = xasprintf("listing %s devices failed: the worker sent a malformed "
					   "stream",
					   b->name);
			break;
		}
		if (type == FRAME_TARGET) {
			d->targets = xreallocarray(d->targets, d->ntargets + 1, sizeof *d->targets);
			if (wire_read_target(payload, len, &d->targets[d->ntargets]) == 0)
				d->targets[d->ntargets++].capabilities = d->backend->capabilities;
		} else if (type == FRAME_ERROR) {
			wire_read_message(payload, len, cause);
			break;
		} else if (type == FRAME_END) {
			d->has_idle = true;
			*out = d;
			return 0;
		}
	}
	free(worker_finish(&d->idle, true));
	dispatch_close(d);
	return -1;
}

size_t dispatch_target_count(const struct dispatcher *d)
{
	return d->ntargets;
}

const struct target *dispatch_target(const struct dispatcher *d, size_t index)
{
	return &d->targets[index];
}

/* Reports that run (c, run) ended without a result, as `verdict` with `message` and,
 * as its detail, the end of what the worker printed (a driver's last words). */
static void lost_run(const struct run_job *job, size_t c, size_t run, enum verdict verdict,
		     const char *message, const char *printed, bool stopped,
		     void (*emit)(void *ctx, struct result *r), void *ctx)
{
	const struct test_case *tc = job->cases[c];
	struct shape n = { 0 }, l = { 0 };
	if (run > 0)
		runner_run_shape(job->backend, tc, job->opt, run, &n, &l);
	struct result r;
	runner_result_init(&r, job->backend, job->target, tc, &n, &l);
	result_set_diag(&r, verdict, tc->path, 0, 0, "%s", message);
	result_settle(&r);
	r.detail = printed ? xstrdup(printed) : NULL;
	r.sandbox_stop = stopped;
	emit(ctx, &r);
	result_free(&r);
}

/* Why a worker that died lost its run; names the address-space limit, which a kernel
 * that allocates too much meets as a failed allocation inside the driver. */
static char *crash_message(const struct run_options *opt, const char *how)
{
	if (opt->address_space_limit == 0)
		return xasprintf("the worker running this died: %s; the OpenCL driver or the "
				 "kernel crashed",
				 how ? how : "it exited without finishing");
	return xasprintf("the worker running this died: %s; the OpenCL driver or the kernel "
			 "crashed (runs are limited to %.1f GiB of address space)",
			 how ? how : "it exited without finishing",
			 opt->address_space_limit / 1073741824.0);
}

/* The time limit of run `run` of case `c`: the case's own, where it sets a shorter one,
 * and after the build the options' run limit, where that is shorter still. */
static unsigned run_limit(const struct run_job *job, size_t c, size_t run, unsigned timeout_s)
{
	unsigned own = c < job->ncases ? job->cases[c]->timeout_s : 0;
	unsigned limit = own > 0 && own < timeout_s ? own : timeout_s;
	unsigned after_build = job->opt->run_limit_s;
	return run > 0 && after_build > 0 && after_build < limit ? after_build : limit;
}

/* Why a run that hangs was stopped after `limit` seconds. */
static char *timeout_message(const struct run_job *job, unsigned limit, size_t run)
{
	if (run > 0 && job->opt->run_limit_s == limit && job->opt->run_limit_why)
		return xasprintf("no result after %u s (%s): the kernel hangs or is far too "
				 "slow, so its worker was killed",
				 limit, job->opt->run_limit_why);
	/* A simulator runs 10^3 to 10^4 times slower than a device: a launch a device ends
	 * at once may need more than the limit there, which a smaller launch avoids. */
	if (backend_can(job->backend, CAN_ONLY_SMALL_SIZES))
		return xasprintf("no result after %u s: the kernel hangs, or this launch is too "
				 "costly to simulate (a simulator runs 10^3 to 10^4 times slower "
				 "than a device), so its worker was killed; give the case sim_sizes: "
				 "(a few work-groups of its shape) or a longer timeout: (or "
				 "--timeout), or check the kernel with clharness check, which probes "
				 "the cost and shrinks a costly launch",
				 limit);
	return xasprintf("no result after %u s: the kernel hangs or is too slow, so its worker "
			 "was killed (raise --timeout, or the case's timeout, if it is only slow)",
			 limit);
}

/* In the parent: the case after c for the job: the next one, or the next handed out. */
static size_t next_claimed(const struct run_job *job, size_t c)
{
	if (job->claim == NULL)
		return c + 1;
	size_t next = claim_take(job->claim);
	return next < job->end_case ? next : job->end_case;
}

/* Reads the progress and results in a frame from a worker following `job`: the run it
 * begins, a result to emit, the case a fresh worker resumes at (*resume_at). Returns what
 * was malformed about it (the worker is then stopped), or NULL. */
static const char *take_frame(const struct run_job *job, struct worker *w, enum frame_type type,
			      const char *payload, size_t len, size_t *cur_case, size_t *cur_run,
			      bool *reported, size_t *resume_at,
			      void (*emit)(void *ctx, struct result *r), void *ctx)
{
	if (type == FRAME_BEGIN) {
		size_t c, run;
		long long printed_before = 0;
		if (wire_read_begin(payload, len, &c, &run, &printed_before) < 0 || c < *cur_case ||
		    (job->claim && c != *cur_case) || c >= job->end_case || printed_before < 0 ||
		    run >= runner_run_count(job->backend, job->cases[c], job->opt))
			return "start of a run";
		*cur_case = c;
		*cur_run = run;
		worker_mark_output(w, printed_before);
		*reported = false;
	} else if (type == FRAME_RESULT) {
		struct result r;
		if (wire_read_result(payload, len, &r) < 0)
			return "result";
		runner_settle(job->opt, &r);
		emit(ctx, &r);
		result_free(&r);
		*reported = true;
	} else if (type == FRAME_RESUME) {
		if (wire_read_resume(payload, len, resume_at) < 0 || *resume_at <= *cur_case)
			return "place to resume";
	} else if (type == FRAME_NEXT) {
		if (job->claim == NULL)
			return "request for a case";
	} else if (type != FRAME_ERROR && type != FRAME_END) {
		return "frame";
	}
	return NULL;
}

/* Follows one worker of `job` until it finishes or leaves. Returns true when it finished
 * the job; otherwise the job's first case and run are moved past the run it left in:
 * the next run of its case, or the next case (taken from the claim, where cases are handed
 * out). */
static bool follow(struct run_job *job, struct worker *w, unsigned timeout_s,
		   void (*emit)(void *ctx, struct result *r), void *ctx)
{
	size_t cur_case = job->first_case, cur_run = job->first_run;
	unsigned limit = run_limit(job, cur_case, 0, timeout_s);
	uint64_t deadline = clock_now_ns() + limit * NS_PER_S;
	bool reported = false; /* the current run's result has arrived */
	char *lost = NULL;
	char *printed = NULL;
	enum verdict lost_verdict = VERDICT_CRASH;
	bool stopped = false; /* the sandbox stopped the worker */

	for (;;) {
		enum frame_type type;
		const char *payload;
		size_t len;
		enum worker_event ev = worker_next(w, deadline, &type, &payload, &len);
		if (interrupt_signal()) {
			/* The parent was told to stop and has killed the worker: its run was
			 * neither lost nor the kernel's fault, and no other starts. */
			free(worker_finish(w, true));
			return true;
		}
		/* A worker that leaves after reporting its run (one whose session was lost does)
		 * owes nothing; one that leaves before has lost that run. */
		if (ev == WORKER_TIMEOUT) {
			printed = worker_output_tail(w, 2000);
			free(worker_finish(w, true));
			lost_verdict = VERDICT_TIMEOUT;
			if (!reported)
				lost = timeout_message(job, limit, cur_run);
			job->timed_out = true;
			break;
		}
		const char *malformed = ev == WORKER_GARBLED ? "stream" : NULL;
		size_t resume_at = job->end_case;
		if (ev == WORKER_FRAME)
			malformed = take_frame(job, w, type, payload, len, &cur_case, &cur_run,
					       &reported, &resume_at, emit, ctx);
		if (malformed) {
			/* Kernels on a CPU device run inside the worker: what it sends may be
			 * anything, and a worker that sends nonsense may never end by itself. */
			printed = worker_output_tail(w, 2000);
			free(worker_finish(w, true));
			if (!reported)
				lost = xasprintf(
					"the worker running this sent a malformed %s, so it "
					"was stopped; a kernel on a CPU device can overwrite "
					"its worker's memory",
					malformed);
			break;
		}
		if (ev == WORKER_GONE) {
			printed = worker_output_tail(w, 2000);
			struct worker_end end;
			char *how = worker_finish_end(w, false, &end);
			/* SIGXCPU at the soft limit; SIGKILL at the hard one, a second later, where
			 * the driver's threads kept SIGXCPU from ending the process. */
			unsigned limit_s = job->opt->cpu_limit_s;
			if (limit_s > 0 && (end.signal == SIGXCPU ||
					    (end.signal == SIGKILL && end.cpu_s >= limit_s))) {
				lost_verdict = VERDICT_TIMEOUT;
				job->timed_out = true;
				if (!reported)
					lost = xasprintf("over %u s of CPU time (all its threads "
							 "together), the limit of a run: the "
							 "kernel hangs or is too slow, so its "
							 "worker was stopped",
							 job->opt->cpu_limit_s);
			} else if (!reported) {
				lost = sandbox_stop_message(end.exit_status, end.signal, printed);
				stopped = lost != NULL;
				if (lost == NULL)
					lost = crash_message(job->opt, how);
			}
			free(how);
			break;
		}
		if (type == FRAME_BEGIN) {
			limit = run_limit(job, cur_case, cur_run, timeout_s);
			deadline = clock_now_ns() + limit * NS_PER_S;
		} else if (type == FRAME_ERROR) {
			char *message = NULL;
			wire_read_message(payload, len, &message);
			char *text = xasprintf("cannot open %s: %s", job->target->name, message);
			for (size_t c = cur_case; c < job->end_case; c = next_claimed(job, c))
				lost_run(job, c, 0, VERDICT_CRASH, text, NULL, false, emit, ctx);
			free(text);
			free(message);
			free(worker_finish(w, true));
			return true;
		} else if (type == FRAME_NEXT) {
			/* The case it finished has reported; the one it is given has not begun. */
			size_t next = next_claimed(job, cur_case);
			if (next < job->end_case && worker_command(w, (uint32_t)next) == 0) {
				cur_case = next;
				cur_run = 0;
				reported = false;
				limit = run_limit(job, cur_case, 0, timeout_s);
				deadline = clock_now_ns() + limit * NS_PER_S;
			} else if (next < job->end_case) {
				/* It is gone before being told: the case is its next worker's. */
				free(worker_finish(w, true));
				job->first_case = next;
				job->first_run = 0;
				return false;
			} else {
				worker_command(w, COMMAND_QUIT);
			}
		} else if (type == FRAME_END) {
			free(worker_finish(w, false));
			return true;
		} else if (type == FRAME_RESUME) {
			free(worker_finish(w, false));
			job->first_case = resume_at;
			job->first_run = 0;
			return resume_at >= job->end_case;
		}
	}

	if (lost)
		lost_run(job, cur_case, cur_run, lost_verdict, lost, printed, stopped, emit, ctx);
	free(lost);
	free(printed);
	/* Resume after the run it left in: the next size of the same case, or the next case
	 * when the build itself was lost or the case has no runs left. */
	if (cur_run > 0 &&
	    cur_run + 1 < runner_run_count(job->backend, job->cases[cur_case], job->opt)) {
		job->first_case = cur_case;
		job->first_run = cur_run + 1;
	} else {
		job->first_case = next_claimed(job, cur_case);
		job->first_run = 0;
	}
	return false;
}

void dispatch_run(struct dispatcher *d, size_t index, void (*emit)(void *ctx, struct result *r),
		  void *ctx)
{
	dispatch_run_cases(d, index, 0, d->ncases, emit, ctx);
}

/* Runs `job` in workers, a fresh one after each that leaves before the job is done. */
static void run_job(struct dispatcher *d, size_t index, struct run_job *job,
		    void (*emit)(void *ctx, struct result *r), void *ctx)
{
	while (job->first_case < job->end_case && !interrupt_signal()) {
		struct worker w;
		bool adopted = false;
		/* The waiting worker runs every case from the first: it can take only a run
		 * that starts there and goes to the end. */
		if (d->has_idle && job->claim == NULL && job->first_case == 0 &&
		    job->first_run == 0 && job->end_case == d->ncases) {
			d->has_idle = false;
			adopted = worker_command(&d->idle, (uint32_t)index) == 0;
			if (adopted)
				w = d->idle;
			else
				free(worker_finish(&d->idle, true)); /* it died waiting */
		}
		if (!adopted) {
			char *cause = NULL;
			struct worker_limits limits = limits_of(d->opt);
			if (worker_start(&w, &limits, run_main, job, &cause) < 0) {
				for (size_t c = job->first_case; c < job->end_case;
				     c = next_claimed(job, c))
					lost_run(job, c, 0, VERDICT_CRASH, cause, NULL, false, emit,
						 ctx);
				free(cause);
				return;
			}
		}
		if (follow(job, &w, d->timeout_s, emit, ctx))
			return;
		if (job->timed_out && d->opt->stop_at_timeout)
			return;
	}
}

/* The job of every case on target `index`, from the first. */
static struct run_job whole_job(const struct dispatcher *d, size_t index)
{
	return (struct run_job){ .backend = d->backend,
				 .target = &d->targets[index],
				 .cases = d->cases,
				 .ncases = d->ncases,
				 .end_case = d->ncases,
				 .opt = d->opt };
}

void dispatch_run_cases(struct dispatcher *d, size_t index, size_t from, size_t to,
			void (*emit)(void *ctx, struct result *r), void *ctx)
{
	struct run_job job = whole_job(d, index);
	job.first_case = from;
	job.end_case = to < d->ncases ? to : d->ncases;
	run_job(d, index, &job, emit, ctx);
}

void dispatch_run_claimed(struct dispatcher *d, size_t index, struct claim *claim,
			  void (*emit)(void *ctx, struct result *r), void *ctx)
{
	/* A simulator's worker ends after a case whose process the backend could not renew
	 * (run_cases), and a fresh one takes the next case handed out. */
	do {
		size_t first = claim_take(claim);
		if (first >= d->ncases)
			return;
		struct run_job job = whole_job(d, index);
		job.first_case = first;
		job.claim = claim;
		run_job(d, index, &job, emit, ctx);
	} while (backend_can(d->backend, CAN_ONLY_FRESH_SESSIONS) && !interrupt_signal());
}

void dispatch_report_lost(struct dispatcher *d, size_t index, size_t c, const char *message,
			  void (*emit)(void *ctx, struct result *r), void *ctx)
{
	struct run_job job = whole_job(d, index);
	if (c < d->ncases)
		lost_run(&job, c, 0, VERDICT_CRASH, message, NULL, false, emit, ctx);
}

struct inspect_job {
	const struct backend *backend;
	const struct run_options *opt;
	const struct target *target;
	const char *path;
	const char *kernel;
	const char *options;
};

/* In a worker: opens the target and sends the kernel's signature, or why there is none. */
static void inspect_main(void *arg, int fd, int control)
{
	const struct inspect_job *job = arg;
	prepare_worker(job->backend, job->opt);
	struct strbuf out = { 0 };
	struct backend_session *session;
	char *cause = NULL;
	if (confine_worker(job->backend, job->opt, NULL, 0, job->path, job->options, &cause) < 0) {
		worker_error(fd, cause);
		return;
	}
	if (job->backend->open(job->target, &session, &cause) < 0) {
		worker_error(fd, cause);
		return;
	}
	if (seal_worker(&cause) < 0) {
		job->backend->close(session);
		worker_error(fd, cause);
		return;
	}
	struct kernel_sig sig;
	struct result failure = { 0 };
	if (job->backend->inspect(session, job->path, job->kernel, job->options, &sig, &failure) ==
	    0)
		wire_signature(&out, &sig);
	else
		wire_result(&out, &failure);
	worker_send(fd, &out);
	job->backend->close(session);
	strbuf_free(&out);
}

int dispatch_inspect(struct dispatcher *d, size_t index, const char *path, const char *kernel,
		     const char *options, struct kernel_sig *sig, struct result *failure)
{
	struct inspect_job job = { d->backend, d->opt, &d->targets[index], path, kernel, options };
	if (d->backend->prepare_file)
		d->backend->prepare_file(path, options);
	struct worker w;
	char *cause = NULL;
	struct worker_limits limits = limits_of(d->opt);
	if (worker_start(&w, &limits, inspect_main, &job, &cause) < 0) {
		result_set_diag(failure, VERDICT_CRASH, path, 0, 0, "%s", cause);
		free(cause);
		return -1;
	}
	uint64_t deadline = clock_now_ns() + d->timeout_s * NS_PER_S;
	enum frame_type type;
	const char *payload;
	size_t len;
	enum worker_event ev = worker_next(&w, deadline, &type, &payload, &len);
	int status = -1;
	const char *malformed = NULL;
	if (ev == WORKER_TIMEOUT) {
		result_set_diag(failure, VERDICT_TIMEOUT, path, 0, 0,
				"building it on %s took over %u s", d->targets[index].name,
				d->timeout_s);
	} else if (ev == WORKER_GONE) {
		char *printed = worker_output_tail(&w, 2000);
		struct worker_end end;
		char *how = worker_finish_end(&w, false, &end);
		char *stop = sandbox_stop_message(end.exit_status, end.signal, printed);
		if (stop)
			result_set_diag(failure, VERDICT_CRASH, path, 0, 0, "%s", stop);
		else
			result_set_diag(failure, VERDICT_CRASH, path, 0, 0,
					"the worker building it on %s died: %s",
					d->targets[index].name, how ? how : "it exited early");
		failure->sandbox_stop = stop != NULL;
		failure->detail = printed;
		free(stop);
		free(how);
	} else if (ev == WORKER_GARBLED) {
		malformed = "stream";
	} else if (type == FRAME_SIGNATURE) {
		status = wire_read_signature(payload, len, sig);
		if (status < 0)
			malformed = "signature";
	} else if (type == FRAME_RESULT) {
		struct result r;
		if (wire_read_result(payload, len, &r) == 0) {
			result_set_diag(failure, r.verdict, r.file, r.line, r.col, "%s",
					r.message ? r.message : "");
			failure->detail = r.detail ? xstrdup(r.detail) : NULL;
			result_free(&r);
		} else {
			malformed = "result";
		}
	} else if (type == FRAME_ERROR) {
		char *message = NULL;
		wire_read_message(payload, len, &message);
		result_set_diag(failure, VERDICT_CRASH, path, 0, 0, "cannot open %s: %s",
				d->targets[index].name, message);
		free(message);
	} else {
		malformed = "frame";
	}
	if (malformed)
		result_set_diag(failure, VERDICT_CRASH, path, 0, 0,
				"the worker building it on %s sent a malformed %s",
				d->targets[index].name, malformed);
	free(worker_finish(&w, true));
	return status;
}

void dispatch_release_idle(struct dispatcher *d)
{
	if (d->has_idle) {
		d->has_idle = false;
		worker_command(&d->idle, COMMAND_QUIT);
		free(worker_finish(&d->idle, false));
	}
}

void dispatch_close(struct dispatcher *d)
{
	if (d == NULL)
		return;
	dispatch_release_idle(d);
	for (size_t i = 0; i < d->ntargets; i++)
		target_free(&d->targets[i]);
	free(d->targets);
	dispatch_release(d->backend);
	free(d);
}
