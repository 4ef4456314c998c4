/* backend_oclgrind.c - the Oclgrind backend: each case runs in the Oclgrind simulator,
 * loaded through the ICD loader from a vendors folder of the harness's own, with its race,
 * uninitialised-value and API checks on; its diagnostics become the run's findings. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/util.h"
#include "exec/backend.h"
#include "exec/clexec.h"
#include "exec/copies_written_out.h"
#include "exec/ocl.h"
#include "exec/worker.h"
#include "findings/oglog.h"

/* The optimiser deletes the very accesses a race or an out-of-bounds read consists of
 * (dead stores, unused loads), and Oclgrind 21.10 cannot run the llvm.assume calls it
 * emits: simulate the program as written. */
#define BUILD_OPTIONS "-cl-opt-disable"

/* A case's sim_build: optimised. Oclgrind 21.10 compiles at clang's -O0, which marks
 * every kernel optnone, so its own -Oz passes would leave the program as written: the
 * front end must leave that mark off for the optimiser to act. */
#define OPTIMISED_OPTIONS "-disable-O0-optnone"

/* The work-items a group may hold under Oclgrind, raised from its default of 1024. */
#define OCLGRIND_WORK_GROUP_LIMIT "65536"

static const char *build_options(const struct test_case *tc)
{
	return tc->sim_optimised ? OPTIMISED_OPTIONS : BUILD_OPTIONS;
}

/* Oclgrind counts errors per process and, at its default of 1000, stops printing them,
 * so a flood of early uninitialised reads could hide the race after them. Each case starts
 * with this whole budget (a fresh process, or one whose count was set back: og_renew); a
 * run that meets it says so.
 * CLHARNESS_OCLGRIND_MAX_ERRORS sets another. */
#define ERROR_BUDGET 20000

/* Whether Oclgrind has stopped reporting in this process: its count of diagnostics is
 * one for the whole process, all contexts together, and never goes back, so once it met
 * the budget every later run here would report nothing, and nothing is no evidence. Set
 * when a log says so ("N errors generated - suppressing further errors", said once). */
static bool oclgrind_silenced;

/* The diagnostics a process may report: CLHARNESS_OCLGRIND_MAX_ERRORS where it is a
 * whole number from 1, else ERROR_BUDGET. */
static unsigned long error_budget(void)
{
	const char *env = getenv("CLHARNESS_OCLGRIND_MAX_ERRORS");
	char *end;
	unsigned long v = env ? strtoul(env, &end, 10) : 0;
	return env && *env && *end == '\0' && v > 0 && v < 1000000000 ? v : ERROR_BUDGET;
}

/* The library the backend loads: CLHARNESS_OCLGRIND_ICD, else what configure found. */
static const char *library(void)
{
	const char *env = getenv("CLHARNESS_OCLGRIND_ICD");
	return env ? env : CLH_OCLGRIND_ICD;
}

static const char *og_unavailable(void)
{
	static char reason[1024];
	const char *lib = library();
	if (*lib == '\0')
		return "configure found no liboclgrind-rt-icd.so: install the Debian package "
		       "oclgrind and run configure again, or configure --with-oclgrind=DIR";
	if (access(lib, R_OK) != 0) {
		snprintf(reason, sizeof reason,
			 "%s cannot be read (%s): install the Debian package oclgrind, or set "
			 "CLHARNESS_OCLGRIND_ICD to Oclgrind's liboclgrind-rt-icd.so",
			 lib, strerror(errno));
		return reason;
	}
	return NULL;
}

/* A vendors folder naming Oclgrind alone, made once by the process that opens a
 * dispatcher (backend.preload) and read by every worker it forks; a folder made and
 * removed on disk by each worker was a tenth of a small simulated case's time. Removed
 * by its maker when the last dispatcher closes (backend.unload); a process forked with
 * it, or a worker that finds it gone, uses it or makes its own. */
static struct {
	char *dir;
	pid_t maker;
	unsigned users;
} shared_vendors;

static void remove_vendors(const char *dir)
{
	char *icd = xasprintf("%s/oclgrind.icd", dir);
	unlink(icd);
	rmdir(dir);
	free(icd);
}

/* Makes a vendors folder whose one .icd file names Oclgrind's library; NULL with *cause
 * set when it cannot. Caller frees. */
static char *make_vendors(char **cause)
{
	char *dir = temp_path("vendors");
	if (mkdtemp(dir) == NULL) {
		*cause = xasprintf("cannot make a vendors folder for Oclgrind (%s): %s", dir,
				   strerror(errno));
		free(dir);
		return NULL;
	}
	char *icd = xasprintf("%s/oclgrind.icd", dir);
	FILE *f = fopen(icd, "w");
	bool written = f != NULL && fprintf(f, "%s\n", library()) >= 0;
	if (f != NULL && fclose(f) != 0)
		written = false;
	if (!written) {
		*cause = xasprintf("cannot write %s: %s", icd, strerror(errno));
		remove_vendors(dir);
		free(dir);
		dir = NULL;
	}
	free(icd);
	return dir;
}

/* The ICD loader opens the library again in each worker by the same path, and so finds it
 * already there. Oclgrind reads its settings when a context is made and counts its
 * diagnostics from the first, so a worker forked after this starts as fresh as one that
 * loaded it itself. The handle is kept: the library stays for the parent's lifetime. */
static void og_preload(void)
{
	if (og_unavailable() != NULL)
		return;
	(void)dlopen(library(), RTLD_NOW | RTLD_LOCAL);
	if (shared_vendors.users++ == 0 && shared_vendors.dir == NULL) {
		char *cause = NULL;
		shared_vendors.dir = make_vendors(&cause); /* else each worker makes its own */
		shared_vendors.maker = getpid();
		free(cause);
	}
}

static void og_unload(void)
{
	if (shared_vendors.users == 0 || --shared_vendors.users > 0)
		return;
	if (shared_vendors.dir && shared_vendors.maker == getpid())
		remove_vendors(shared_vendors.dir);
	free(shared_vendors.dir);
	shared_vendors.dir = NULL;
}

/* Sets this worker's environment for Oclgrind and has the ICD loader read a vendors
 * folder naming Oclgrind alone (the shared one, else one of its own, which goes right
 * after: the loader reads it once, at the first OpenCL call). The parent never calls
 * OpenCL, so a fresh worker always starts unprepared. */
static int prepare(char **cause)
{
	static bool prepared;
	if (prepared)
		return 0;
	const char *why = og_unavailable();
	if (why) {
		*cause = xstrdup(why);
		return -1;
	}
	char budget[32];
	snprintf(budget, sizeof budget, "%lu", error_budget());
	const char *const settings[][2] = {
		{ "OCLGRIND_DATA_RACES", "1" },
		{ "OCLGRIND_UNINITIALIZED", "1" },
		{ "OCLGRIND_CHECK_API", "1" },
		{ "OCLGRIND_MAX_ERRORS", budget },
		/* One simulator thread: the same messages in the same order on every run, and
		 * a racy kernel's output the same too, so goldens can hold them. */
		{ "OCLGRIND_NUM_THREADS", "1" },
		/* Oclgrind's default limit of 1024 work-items a group is its own choice, no
		 * device's: a 64x64 group that a kernel is written for runs. */
		{ "OCLGRIND_MAX_WGSIZE", OCLGRIND_WORK_GROUP_LIMIT },
	};
	/* What a user's environment may hold that would change what Oclgrind reports: quick
	 * mode simulates only the first and last work-group, missing races between the
	 * groups in between; the others add output, options or stops of their own. */
	static const char *const cleared[] = {
		"OCLGRIND_QUICK",	   "OCLGRIND_INTERACTIVE",
		"OCLGRIND_BUILD_OPTIONS",  "OCLGRIND_PLUGINS",
		"OCLGRIND_INST_COUNTS",	   "OCLGRIND_WORKLOAD_CHARACTERISATION",
		"OCLGRIND_UNIFORM_WRITES", "OCLGRIND_LOG",
		"OCL_ICD_FILENAMES",
	};
	for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
		setenv(settings[i][0], settings[i][1], 1);
	for (size_t i = 0; i < sizeof cleared / sizeof cleared[0]; i++)
		unsetenv(cleared[i]);

	const char *dir = shared_vendors.dir;
	char *own = NULL;
	if (dir == NULL || access(dir, R_OK | X_OK) != 0) {
		own = make_vendors(cause);
		if (own == NULL)
			return -1;
		dir = own;
	}
	setenv("OCL_ICD_VENDORS", dir, 1);
	cl_uint n = 0;
	cl_int err = clGetPlatformIDs(0, NULL, &n);
	int status = 0;
	if (err != CL_SUCCESS || n == 0) {
		*cause = xasprintf("the ICD loader did not load %s (%s (%d)): is it "
				   "Oclgrind's liboclgrind-rt-icd.so?",
				   library(), ocl_error_name(err), err);
		status = -1;
	}
	if (own) {
		remove_vendors(own);
		free(own);
	}
	prepared = status == 0;
	return status;
}

static int is_oclgrind_platform(const char *platform_name)
{
	return strcasestr(platform_name, "oclgrind") != NULL;
}

static int og_list(struct target **targets, size_t *count, char **cause)
{
	if (prepare(cause) < 0)
		return -1;
	if (ocl_list_targets(is_oclgrind_platform, targets, count, cause) < 0)
		return -1;
	/* Oclgrind calls itself every device type at once; it is none of them. */
	for (size_t i = 0; i < *count; i++) {
		struct target *t = &(*targets)[i];
		free(t->name);
		free(t->type);
		t->name = i == 0 ? xstrdup("oclgrind") : xasprintf("oclgrind-%zu", i);
		t->type = xstrdup(backend_oclgrind.fixed_type);
	}
	return 0;
}

/* One Oclgrind context with its own log, which this process reads through `log`. */
struct simulation {
	struct clexec *cx;
	int log;
};

struct og_session {
	struct target target;
	long long printed_at_open; /* what the worker had printed when the session opened */
	/* A build or run that failed, or a diagnostic of something besides the kernel's
	 * accesses and barriers (an API error, a fatal one, the budget met): after it the
	 * process is not renewed (og_renew). */
	bool unusual;
	/* Every write-write race, same-value ones included (OCLGRIND_UNIFORM_WRITES=1). */
	struct simulation strict;
	/* Oclgrind's default, which lets writes of the same value pass: opened when a run
	 * has write-write races, to tell the ones that store the same value apart. */
	struct simulation lenient;
	const struct test_case *lenient_case; /* the case last built on lenient */
	/* The program with its async copies written out as loads and stores: opened when a
	 * run of a kernel with strided copies has uninitialised values, to tell the ones
	 * Oclgrind made up apart (copies_written_out.h). */
	struct simulation written_out;
	const struct test_case *written_out_case;
	char *prelude_path; /* copies_written_out_prelude(), for -include */
	const struct test_case *copies_case; /* the case copies_strided is of */
	bool copies_strided;
};

/* Opens a context whose Oclgrind logs to a private file, read through sim->log: a strict
 * one, which reports every write-write race and every use of an uninitialised value, or a
 * lenient one, which lets writes of the same value pass and checks no values. A lenient
 * run is asked only which write-write races store different values, and without Oclgrind's
 * shadow of every value (its Uninitialized plugin) it costs half as much or less. */
static int simulation_open(const struct target *target, bool lenient, struct simulation *sim,
			   char **cause)
{
	/* Oclgrind opens its log by name: a file in memory is named through /proc, where
	 * there is one; else a temporary file on disk, whose name goes once both hold it. */
	char *path = NULL;
	bool on_disk = false;
	sim->log = anon_file("oclgrind-log");
	if (sim->log >= 0) {
		path = xasprintf("/proc/self/fd/%d", sim->log);
		if (access(path, W_OK) != 0) {
			close(sim->log);
			sim->log = -1;
			free(path);
			path = NULL;
		}
	}
	if (sim->log < 0) {
		path = temp_path("log");
		sim->log = mkstemp(path);
		on_disk = true;
	}
	if (sim->log < 0) {
		*cause = xasprintf("cannot make Oclgrind's log file %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	/* Oclgrind reads these when a context is created, not afterwards. */
	setenv("OCLGRIND_LOG", path, 1);
	if (lenient)
		unsetenv("OCLGRIND_UNINITIALIZED");
	else
		setenv("OCLGRIND_UNIFORM_WRITES", "1", 1);
	int status = clexec_open(target, false, &sim->cx, cause);
	unsetenv("OCLGRIND_LOG");
	unsetenv("OCLGRIND_UNIFORM_WRITES");
	setenv("OCLGRIND_UNINITIALIZED", "1", 1);
	if (on_disk)
		unlink(path);
	free(path);
	if (status < 0) {
		close(sim->log);
		sim->log = -1;
	}
	return status;
}

static void simulation_close(struct simulation *sim)
{
	clexec_close(sim->cx);
	if (sim->log >= 0)
		close(sim->log);
	*sim = (struct simulation){ .log = -1 };
}

static long long log_size(const struct simulation *sim)
{
	off_t size = lseek(sim->log, 0, SEEK_END);
	return size > 0 ? (long long)size : 0;
}

static int og_open(const struct target *target, struct backend_session **out, char **cause)
{
	if (prepare(cause) < 0)
		return -1;
	/* A kernel's printf goes to stdout and Oclgrind's own API and fatal errors to stderr,
	 * which collect() reads: a kernel that prints a diagnostic's words must not make
	 * one, and what it prints is the run's to show. */
	worker_stdout_apart();
	struct og_session *s = xcalloc(1, sizeof *s);
	s->strict.log = s->lenient.log = s->written_out.log = -1;
	s->printed_at_open = worker_output_offset();
	if (simulation_open(target, false, &s->strict, cause) < 0) {
		free(s);
		return -1;
	}
	s->target = (struct target){ .name = xstrdup(target->name),
				     .device = xstrdup(target->device),
				     .platform_index = target->platform_index,
				     .device_index = target->device_index,
				     .limits = target->limits };
	*out = (struct backend_session *)s;
	return 0;
}

/* Where Oclgrind's "input.cl" of a kernel is: the file of the case's step that names it. */
static const char *kernel_file(void *ctx, const char *kernel)
{
	const struct test_case *tc = ctx;
	for (size_t s = 0; s < tc->nsteps; s++)
		if (kernel && tc->steps[s].kernel_name &&
		    strcmp(tc->steps[s].kernel_name, kernel) == 0)
			return tc->steps[s].kernel_path;
	return tc->nsteps == 1 ? tc->steps[0].kernel_path : NULL;
}

struct folding {
	struct finding_list *list;
	const struct test_case *tc;
	bool printed_only; /* text the process printed: only API and fatal errors count */
};

static void fold(void *ctx, const struct oglog_message *m)
{
	struct folding *f = ctx;
	if (f->printed_only && m->kind != OGLOG_API_ERROR && m->kind != OGLOG_FATAL)
		return;
	if (m->kind == OGLOG_SUPPRESSED)
		oclgrind_silenced = true;
	finding_list_add(f->list, m, kernel_file, (void *)f->tc);
}

/* A run that began after Oclgrind stopped reporting here checked nothing: said as
 * Oclgrind says it when it stops, so the run is incomplete like one cut short. */
static void add_silenced(struct finding_list *list, const struct test_case *tc)
{
	struct oglog_message m = { .kind = OGLOG_SUPPRESSED, .suppressed = (long)error_budget() };
	finding_list_add(list, &m, kernel_file, (void *)tc);
}

/* Whether a run's findings hold a fatal error: Oclgrind stopped the kernel part-way. */
static bool stopped_part_way(const struct finding_list *list)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].kind == FINDING_SIMULATOR_ERROR)
			return true;
	return false;
}

/* Keeps the reason of the first fatal error, in ctx's info. */
static void keep_fatal(void *ctx, const struct oglog_message *m)
{
	struct oglog_message *fatal = ctx;
	if (m->kind == OGLOG_FATAL && fatal->info == NULL && m->info)
		fatal->info = xstrdup(m->info);
}

/* Adds what Oclgrind logged and printed since the marks to `list`. */
static void collect(const struct simulation *sim, long long logged, long long printed,
		    const struct test_case *tc, struct finding_list *list)
{
	char *log = read_fd_from(sim->log, logged);
	struct folding folding = { list, tc, false };
	oglog_parse(log, fold, &folding);
	free(log);
	/* Oclgrind 21.10 prints API errors, and some fatal ones, instead of logging them. */
	char *out = worker_own_output(printed);
	folding.printed_only = true;
	oglog_parse(out, fold, &folding);
	free(out);
}

/* A kernel Oclgrind cannot simulate fails to be created, with the reason printed rather
 * than returned: where it printed one since `printed`, that is the failure, a build
 * error of the program at `path`. */
static void explain_refusal(long long printed, const char *path, struct result *failure)
{
	struct oglog_message fatal = { 0 };
	char *out = worker_own_output(printed);
	oglog_parse(out, keep_fatal, &fatal);
	if (fatal.info) {
		result_set_diag(failure, VERDICT_BUILD_ERROR, path, 0, 0,
				"Oclgrind cannot simulate this program: %s", fatal.info);
		free(failure->detail);
		failure->detail = xstrdup(out);
	}
	free(fatal.info);
	free(out);
}

static int og_build(struct backend_session *session, const struct test_case *tc,
		    unsigned *cached, struct result *failure)
{
	struct og_session *s = (struct og_session *)session;
	long long printed = worker_output_offset();
	int built = clexec_build(s->strict.cx, tc, build_options(tc), cached, failure);
	if (built < 0) {
		explain_refusal(printed, tc->steps[0].kernel_path, failure);
		s->unusual = true;
	}
	return built;
}

/* Whether the findings of `list` from `from` on are all of the kernel's accesses and
 * barriers, the diagnostics a simulation of a buggy kernel ends with as usual. */
static bool only_kernel_findings(const struct finding_list *list, size_t from)
{
	for (size_t i = from; i < list->count; i++)
		switch (list->items[i].kind) {
		case FINDING_RACE:
		case FINDING_DIVERGENCE:
		case FINDING_OUT_OF_BOUNDS:
		case FINDING_UNINITIALIZED:
		case FINDING_ASYNC_COPY:
			break;
		default:
			return false;
		}
	return true;
}

/* Runs the plan once more on `sim`, opened and built for tc (with `options`) where it is
 * not yet, and adds what Oclgrind reported there to `found`. Returns whether that run is
 * evidence of what is absent from it: it ran to its end and reported all it saw. */
static bool rerun(struct og_session *s, struct simulation *sim, bool lenient,
		  const struct test_case **built_for, const char *options,
		  const struct test_case *tc, const struct plan *plan, void *const *initial,
		  struct finding_list *found)
{
	if (oclgrind_silenced)
		return false;
	char *cause = NULL;
	if (sim->cx == NULL && simulation_open(&s->target, lenient, sim, &cause) < 0) {
		free(cause);
		s->unusual = true;
		return false;
	}
	struct result scratch = { 0 };
	if (*built_for != tc) {
		unsigned cached = 0;
		if (clexec_build(sim->cx, tc, options, &cached, &scratch) < 0) {
			result_free(&scratch);
			*built_for = NULL;
			s->unusual = true;
			return false;
		}
		*built_for = tc;
	}
	void **final = xcalloc(tc->nbuffers, sizeof *final);
	for (size_t b = 0; b < tc->nbuffers; b++)
		if (tc->buffers[b].output)
			final[b] = xmalloc(plan_buffer_bytes(tc, plan, b));
	long long logged = log_size(sim), printed = worker_output_offset();
	uint64_t ns = 0;
	bool whole = false;
	size_t before = found->count;
	if (clexec_execute(sim->cx, tc, plan, initial, final, 1, &ns, &scratch) == 0) {
		collect(sim, logged, printed, tc, found);
		whole = !oclgrind_silenced && !stopped_part_way(found);
	}
	s->unusual |= !whole || !only_kernel_findings(found, before);
	for (size_t b = 0; b < tc->nbuffers; b++)
		free(final[b]);
	free(final);
	result_free(&scratch);
	return whole;
}

static bool recurs(const struct finding *f, const struct finding_list *list)
{
	for (size_t j = 0; j < list->count; j++)
		if (finding_same(f, &list->items[j]))
			return true;
	return false;
}

static bool write_write(const struct finding *f)
{
	return f->kind == FINDING_RACE && strcmp(f->what, "write-write") == 0;
}

/* Whether f is among the settled findings as an error. */
static bool settled_error(const struct finding *f, const struct finding_list *settled)
{
	for (size_t j = 0; settled && j < settled->count; j++)
		if (settled->items[j].severity == DIAG_ERROR && finding_same(f, &settled->items[j]))
			return true;
	return false;
}

/* Runs the plan once more on the lenient context and turns every write-write race that
 * did not recur there into a warning: its writes store the same value. That absence is
 * evidence only from a lenient run that ran to its end and reported all it saw; from one
 * that failed, was stopped part-way or met Oclgrind's cap, every race stays an error.
 * Where every write-write race is settled, there is nothing to tell apart. */
static void soften_uniform_writes(struct og_session *s, const struct test_case *tc,
				  const struct plan *plan, void *const *initial,
				  const struct finding_list *settled, struct result *r)
{
	bool any = false;
	for (size_t i = 0; i < r->findings.count && !any; i++)
		any = write_write(&r->findings.items[i]) &&
		      !settled_error(&r->findings.items[i], settled);
	struct finding_list distinct = { 0 };
	if (any && rerun(s, &s->lenient, true, &s->lenient_case, build_options(tc), tc, plan,
			 initial, &distinct))
		for (size_t i = 0; i < r->findings.count; i++) {
			struct finding *f = &r->findings.items[i];
			if (write_write(f) && !recurs(f, &distinct))
				f->severity = DIAG_WARNING;
		}
	finding_list_free(&distinct);
}

/* Whether a step of tc calls async_work_group_strided_copy, read once a case. */
static bool copies_strided(struct og_session *s, const struct test_case *tc)
{
	if (s->copies_case == tc)
		return s->copies_strided;
	s->copies_case = tc;
	s->copies_strided = false;
	for (size_t st = 0; st < tc->nsteps && !s->copies_strided; st++) {
		size_t len;
		char *source = read_file(tc->steps[st].kernel_path, &len);
		s->copies_strided = source_uses_strided_copy(source);
		free(source);
	}
	return s->copies_strided;
}

/* The file -include reads the prelude from, written once a session; NULL where it
 * cannot be. */
static const char *prelude_path(struct og_session *s)
{
	if (s->prelude_path)
		return s->prelude_path;
	char *path = temp_path("copies");
	int fd = mkstemp(path);
	const char *text = copies_written_out_prelude();
	size_t len = strlen(text);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		free(path);
		return NULL;
	}
	close(fd);
	s->prelude_path = path;
	return path;
}

/* Runs the plan once more with every async copy written out as loads and stores, where
 * the kernel makes strided copies and the run found uninitialised values: each one that
 * does not recur there is Oclgrind's own (copies_written_out.h) and becomes a note that
 * says so. The absence is evidence only from a run that ran to its end, and only where
 * every copy was waited for before its data was used: written out, a copy is done at
 * once, so a value read before its wait would be there when it truly may not be. */
static void confirm_uninitialized(struct og_session *s, const struct test_case *tc,
				  const struct plan *plan, void *const *initial, struct result *r)
{
	bool any = false;
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		if (f->kind == FINDING_ASYNC_COPY ||
		    (f->kind == FINDING_RACE && (f->at.access == 'c' || f->other.access == 'c')))
			return;
		any |= f->kind == FINDING_UNINITIALIZED;
	}
	const char *path = any && copies_strided(s, tc) ? prelude_path(s) : NULL;
	if (path == NULL)
		return;
	char *options = xasprintf("%s -include %s", build_options(tc), path);
	struct finding_list found = { 0 };
	if (rerun(s, &s->written_out, false, &s->written_out_case, options, tc, plan, initial,
		  &found))
		for (size_t i = 0; i < r->findings.count; i++) {
			struct finding *f = &r->findings.items[i];
			if (f->kind == FINDING_UNINITIALIZED && !recurs(f, &found))
				f->severity = DIAG_NOTE;
		}
	finding_list_free(&found);
	free(options);
}

static int og_execute(struct backend_session *session, const struct test_case *tc,
		      const struct plan *plan, void *const *initial, void **final, unsigned repeat,
		      uint64_t *round_ns, const struct finding_list *settled,
		      struct result *failure)
{
	struct og_session *s = (struct og_session *)session;
	bool silenced_before = oclgrind_silenced;
	long long logged = log_size(&s->strict), printed = worker_output_offset();
	int status =
		clexec_execute(s->strict.cx, tc, plan, initial, final, repeat, round_ns, failure);
	collect(&s->strict, logged, printed, tc, &failure->findings);
	if (silenced_before)
		add_silenced(&failure->findings, tc);
	if (status == 0) {
		soften_uniform_writes(s, tc, plan, initial, settled, failure);
		confirm_uninitialized(s, tc, plan, initial, failure);
	}
	finding_list_sort(&failure->findings);
	s->unusual |= status != 0 || !only_kernel_findings(&failure->findings, 0);
	return status;
}

static int og_inspect(struct backend_session *session, const char *path, const char *kernel,
		      const char *options, struct kernel_sig *sig, struct result *failure)
{
	struct og_session *s = (struct og_session *)session;
	long long printed = worker_output_offset();
	int status =
		clexec_inspect(s->strict.cx, path, kernel, BUILD_OPTIONS, options, sig, failure);
	if (status < 0)
		explain_refusal(printed, path, failure);
	return status;
}

static bool og_spent(const struct backend_session *session)
{
	return oclgrind_silenced;
}

/* Oclgrind's count of the diagnostics it has logged, which its error budget is checked
 * against: one for the whole process, all contexts together (the static member
 * Logger::m_numErrors, which liboclgrind exports), or NULL where the library has none by
 * that name. */
static unsigned *diagnostics_count(void)
{
	static unsigned *count;
	static bool looked;
	if (!looked) {
		looked = true;
		/* Found through the ICD library that links it, already loaded here. */
		void *icd = dlopen(library(), RTLD_LAZY | RTLD_NOLOAD);
		if (icd) {
			count = dlsym(icd, "_ZN8oclgrind6Logger11m_numErrorsE");
			dlclose(icd);
		}
	}
	return count;
}

/* Oclgrind's count of diagnostics is the one thing a context leaves in its process that
 * changes what a later one reports: every sweep trial of the 62 hunts of tests/races
 * reports the same verdict, findings, counts and work-items after other trials in one
 * process as alone in a fresh one. A session that logged and printed nothing left the
 * count as it found it; one that logged only the kernel's own findings has it set back to
 * zero, so the next case has Oclgrind's whole budget. Anything else (a failed build or
 * run, an API or fatal error, which Oclgrind 21.10 may print rather than log, the budget
 * met) leaves the next case to a fresh process. */
static bool og_renew(struct backend_session *session)
{
	const struct og_session *s = (const struct og_session *)session;
	if (oclgrind_silenced || s->unusual || worker_output_offset() != s->printed_at_open)
		return false;
	const struct simulation *sims[] = { &s->strict, &s->lenient, &s->written_out };
	bool logged = false;
	for (size_t i = 0; i < sizeof sims / sizeof sims[0]; i++)
		logged |= sims[i]->log >= 0 && log_size(sims[i]) > 0;
	if (!logged)
		return true;
	unsigned *count = diagnostics_count();
	if (count == NULL)
		return false;
	*count = 0;
	return true;
}

static void og_close(struct backend_session *session)
{
	struct og_session *s = (struct og_session *)session;
	if (s == NULL)
		return;
	simulation_close(&s->strict);
	if (s->lenient.cx)
		simulation_close(&s->lenient);
	if (s->written_out.cx)
		simulation_close(&s->written_out);
	if (s->prelude_path)
		unlink(s->prelude_path);
	free(s->prelude_path);
	target_free(&s->target);
	free(s);
}

const struct backend backend_oclgrind = {
	.name = "oclgrind",
	.capabilities = CAN_ONLY_SMALL_SIZES | CAN_FIND | CAN_ONLY_FRESH_SESSIONS | CAN_REPEAT,
	.fixed_target = "oclgrind",
	.fixed_type = "simulator",
	.unavailable = og_unavailable,
	.preload = og_preload,
	.unload = og_unload,
	.list_targets = og_list,
	.open = og_open,
	.build = og_build,
	.execute = og_execute,
	.inspect = og_inspect,
	.close = og_close,
	.spent = og_spent,
	.renew = og_renew,
};
