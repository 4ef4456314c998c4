/* hunt.c - `clharness hunt`: a sweep of runs over input sets, launch shapes and builds,
 * spread over processes, each finding kept with the trial that first showed it; where the
 * sweep ran instrumented, each finding is confirmed under the simulator. */
#include "config.h"

#include "check/hunt.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfyaml.h>

#include "base/annotate.h"
#include "base/child.h"
#include "base/interrupt.h"
#include "base/parallel.h"
#include "base/util.h"
#include "case/elem.h"
#include "case/testcase.h"
#include "exec/backend.h"
#include "exec/dispatch.h"
#include "exec/select.h"
#include "exec/wire.h"
#include "findings/finding.h"
#include "source/instrument.h"

/* Oclgrind's CL_DEVICE_MAX_WORK_GROUP_SIZE. */
#define SIMULATOR_MAX_GROUP 1024

/* ---- the sweep ---------------------------------------------------------------------- */

static unsigned long long volume(const struct shape *s)
{
	unsigned long long v = 1;
	for (unsigned d = 0; d < s->dims; d++)
		v *= (unsigned long long)s->d[d];
	return v;
}

static bool same_shape(const struct shape *a, const struct shape *b)
{
	if (a->dims != b->dims)
		return false;
	for (unsigned d = 0; d < a->dims; d++)
		if (a->d[d] != b->d[d])
			return false;
	return true;
}

struct plan_list {
	struct hunt_trial *items;
	size_t count;
};

static void add_trial(struct plan_list *pl, const struct hunt_trial *t)
{
	for (size_t i = 0; i < pl->count; i++)
		if (pl->items[i].set == t->set && pl->items[i].optimised == t->optimised &&
		    same_shape(&pl->items[i].n, &t->n) && same_shape(&pl->items[i].l, &t->l))
			return;
	pl->items = xreallocarray(pl->items, pl->count + 1, sizeof *pl->items);
	pl->items[pl->count++] = *t;
}

/* The work-group shapes of the sweep: s in every dimension at once, and s in one
 * dimension with 1 in the others, for s = 1, 2, 4, ... while the group fits. */
static size_t group_shapes(unsigned dims, unsigned long long max_group, struct shape **out)
{
	size_t n = 0;
	*out = NULL;
	for (long long s = 1;; s *= 2) {
		struct shape all = { .dims = dims };
		for (unsigned d = 0; d < dims; d++)
			all.d[d] = s;
		bool fits = volume(&all) <= max_group;
		if (fits) {
			*out = xreallocarray(*out, n + 1, sizeof **out);
			(*out)[n++] = all;
		}
		for (unsigned k = 0;
		     dims > 1 && k < dims && s > 1 && (unsigned long long)s <= max_group; k++) {
			struct shape one = { .dims = dims };
			for (unsigned d = 0; d < dims; d++)
				one.d[d] = d == k ? s : 1;
			*out = xreallocarray(*out, n + 1, sizeof **out);
			(*out)[n++] = one;
		}
		if ((unsigned long long)s > max_group)
			break;
	}
	return n;
}

/* The order of the sweep: the items a trial runs, weighed so that a new shape with the
 * plain inputs and build comes before another input set, and that before the optimised
 * build, at the same cost: shapes expose more than values at first, and both more than
 * the optimiser, which mostly takes accesses away. */
static unsigned long long trial_cost(const struct hunt_trial *t)
{
	return volume(&t->n) * (t->set != SET_RANDOM ? 4 : 1) * (t->optimised ? 4 : 1);
}

static int by_cost(const void *a, const void *b)
{
	const struct hunt_trial *x = a, *y = b;
	unsigned long long cx = trial_cost(x), cy = trial_cost(y);
	if (cx != cy)
		return cx < cy ? -1 : 1;
	unsigned long long lx = volume(&x->l), ly = volume(&y->l);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return (int)x->optimised - (int)y->optimised;
}

size_t hunt_plan(const struct shape *n_own, const struct shape *l_own, unsigned sets,
		 unsigned long long max_group, bool ragged, bool fixed_group,
		 struct hunt_trial **trials)
{
	struct plan_list pl = { 0 };
	/* The plain run first: what one simulated run of the case would show; then its
	 * optimised twin, which tells whether the simulator can run the optimised build. */
	add_trial(&pl, &(struct hunt_trial){ .set = SET_RANDOM, .n = *n_own, .l = *l_own });
	add_trial(&pl, &(struct hunt_trial){
			       .set = SET_RANDOM, .n = *n_own, .l = *l_own, .optimised = true });
	struct shape *groups;
	size_t ngroups = 1;
	if (fixed_group) {
		groups = xmalloc(sizeof *groups);
		groups[0] = *l_own;
	} else {
		ngroups = group_shapes(n_own->dims, max_group, &groups);
	}
	struct plan_list rest = { 0 };
	for (size_t g = 0; g < ngroups; g++) {
		const struct shape *l = &groups[g];
		for (long long count = 1; count <= 3; count++) {
			for (int cut = 0; cut <= (ragged ? 1 : 0); cut++) {
				struct shape n = { .dims = l->dims };
				bool any_cut = false;
				for (unsigned d = 0; d < l->dims; d++) {
					n.d[d] = count * l->d[d];
					/* Half a group short in the first dimension: a tail. */
					if (cut && d == 0 && l->d[d] > 1) {
						n.d[d] -= l->d[d] / 2;
						any_cut = true;
					}
				}
				if (cut && !any_cut)
					continue;
				for (int s = 0; s < SET_COUNT; s++) {
					if (!(sets & (1u << s)))
						continue;
					/* Half of one item is none: the random set again. */
					if (s == SET_SCALAR_TAIL && l->d[0] < 2)
						continue;
					for (int opt = 0; opt <= 1; opt++)
						add_trial(&rest, &(struct hunt_trial){
									 .set = (enum input_set)s,
									 .n = n,
									 .l = *l,
									 .optimised = opt });
				}
			}
		}
	}
	free(groups);
	if (rest.count > 1)
		qsort(rest.items, rest.count, sizeof *rest.items, by_cost);
	for (size_t i = 0; i < rest.count; i++)
		add_trial(&pl, &rest.items[i]);
	free(rest.items);
	*trials = pl.items;
	return pl.count;
}

void hunt_trial_text(const struct hunt_trial *t, bool own_inputs, char *buf, size_t size)
{
	char n[SHAPE_TEXT_MAX], l[SHAPE_TEXT_MAX];
	shape_format(&t->n, n);
	shape_format(&t->l, l);
	snprintf(buf, size, "%s inputs, N=%s L=%s, %s",
		 own_inputs && t->set == SET_RANDOM ? "its own" : adhoc_set_name(t->set), n, l,
		 t->optimised ? "optimised build" : "built as written");
}

/* ---- one target: a case file, or a kernel as check takes it -------------------------- */

struct hunt_target {
	const char *label;     /* for reports: the case or kernel file */
	const char *trials_on; /* the target the trials run on: oclgrind, pocl-cpu+racecheck */
	/* It runs small launches alone (the simulator), and so takes the optimised build as a
	 * build of its own to try; a device compiles one build, optimised, whatever is asked. */
	bool simulated;
	const char *case_path; /* the case form */
	/* The kernel form: */
	const struct adhoc_request *rq;
	struct kernel_sig sig;
	struct adhoc_binding binding;
	const char *text_label; /* the generated case's name, as check gives it */
	int *spec_line;
	const struct suppression_list *suppressions; /* --suppressions */
};

/* Input set `set` in a case's own buffers: those it fills itself (not from a file, not
 * poisoned outputs) take the set's values instead. */
static void apply_input_set(struct test_case *tc, enum input_set set)
{
	for (size_t b = 0; b < tc->nbuffers; b++) {
		struct init_spec *init = &tc->buffers[b].init;
		if (init->kind != INIT_POISON && init->kind != INIT_FILE)
			adhoc_set_values(set, tc->buffers[b].type, tc->buffers[b].record != NULL,
					 &init->kind, &init->lo, &init->hi);
	}
}

static struct shape *one_shape(const struct shape *s)
{
	struct shape *copy = xmalloc(sizeof *copy);
	*copy = *s;
	return copy;
}

/* The target as a case with input set `set`: the case file with its own buffers given
 * the set's values, or the case check makes of the kernel for that set. NULL, with why
 * in diags, when it does not load. */
static struct test_case *load_target(const struct hunt_target *t, enum input_set set,
				     struct diag_list *diags)
{
	if (t->case_path) {
		struct test_case *tc = case_load(t->case_path, diags);
		if (tc)
			apply_input_set(tc, set);
		return tc;
	}
	char *text =
		adhoc_case_text(t->rq, &t->sig, &t->binding, set, t->rq->kernel_path, t->spec_line);
	struct test_case *tc = case_load_text(t->text_label, text, diags);
	free(text);
	return tc;
}

/* The case one trial runs, named by the trial's index; NULL when it does not load. */
static struct test_case *trial_case(const struct hunt_target *t, const struct hunt_trial *trial,
				    size_t index)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = load_target(t, trial->set, &diags);
	diag_list_free(&diags);
	if (tc == NULL)
		return NULL;
	/* Only the simulator's findings count: outputs are compared with nothing, so no
	 * input set is refused for a reference it does not suit. */
	case_drop_checks(tc);
	free(tc->sizes);
	free(tc->sim_sizes);
	free(tc->locals);
	free(tc->sim_locals);
	tc->sizes = one_shape(&trial->n);
	tc->sim_sizes = one_shape(&trial->n);
	tc->locals = one_shape(&trial->l);
	tc->sim_locals = one_shape(&trial->l);
	tc->nsizes = tc->nsim_sizes = tc->nlocals = tc->nsim_locals = 1;
	tc->sim_optimised = trial->optimised;
	free(tc->name);
	tc->name = xasprintf("%zu", index);
	return tc;
}

/* ---- the processes that run trials --------------------------------------------------- */

/* Sends a trial's result to the parent on the descriptor ctx points to. */
static void send_result(void *ctx, struct result *r)
{
	const int *fd = ctx;
	struct strbuf out = { 0 };
	wire_result(&out, r);
	write_all(*fd, out.data, out.len); /* a parent gone has no use for it */
	strbuf_free(&out);
}

/* In a child: runs trials first, first + step, ... on the simulator, sending each
 * result to fd; a trial that does not load is sent as a case error. `settled` (NULL:
 * none, while shrinking, where each trial must show its finding as it was found) holds
 * the errors the sweep has shown so far, and grows with the child's own
 * (run_options.settled). */
static void run_trials(const struct hunt_target *t, const struct hunt_trial *trials, size_t ntrials,
		       size_t first, size_t step, unsigned timeout_s, unsigned run_limit_s,
		       struct finding_list *settled, int fd)
{
	struct test_case **cases = xcalloc(ntrials / step + 1, sizeof *cases);
	size_t ncases = 0;
	for (size_t i = first; i < ntrials; i += step) {
		struct test_case *tc = trial_case(t, &trials[i], i);
		if (tc) {
			cases[ncases++] = tc;
			continue;
		}
		struct result r = { .case_name = xasprintf("%zu", i),
				    .verdict = VERDICT_CASE_ERROR };
		send_result(&fd, &r);
		free(r.case_name);
	}
	char *patterns[] = { (char *)t->trials_on };
	struct run_options opt = { .repeat = 1,
				   .suppressions = t->suppressions,
				   .settled = settled,
				   .run_limit_s = run_limit_s,
				   .run_limit_why = "a quarter of the hunt's budget, which the "
						    "plain run may take" };
	struct selection sel;
	selection_open(&sel, patterns, 1, cases, ncases, &opt, timeout_s);
	for (size_t s = 0; s < sel.count; s++)
		selection_run(&sel, s, send_result, &fd);
	selection_free(&sel);
	for (size_t i = 0; i < ncases; i++)
		case_free(cases[i]);
	free(cases);
}

struct hunt_child {
	pid_t pid;
	int fd;
	struct strbuf got;
};

/* A finding, with the trial that first showed it and the smallest that shows it. */
/* What the launch as given is: its work-group shapes (--local, or a case's local lists)
 * and, for a captured application's case, its sizes too, the launches it makes (none:
 * any size). */
struct own_launches {
	struct shape *groups;
	size_t ngroups;
	struct shape *sizes;
	size_t nsizes;
};

/* A target's sweep, as its case says: the shape and input sets it starts from, whether
 * its N may be ragged, whether it is a captured application's, and its own launches. */
struct hunt_model {
	struct shape n, l;
	unsigned sets;
	bool ragged, captured;
	struct own_launches own;
};

/* What the simulator said of a finding the sweep found on an instrumented device, at its
 * smallest launch. */
enum confirmation {
	CONFIRM_NOT_ASKED, /* the sweep ran on the simulator itself */
	CONFIRM_SHOWN,	   /* Oclgrind shows it too */
	CONFIRM_NOT_SHOWN, /* Oclgrind ran that launch to its end without it: they disagree */
	CONFIRM_TOO_LARGE, /* the launch is more than the simulator takes */
	CONFIRM_FAILED,	   /* Oclgrind gave nothing to judge there (confirm_why says why) */
};

struct found {
	struct finding finding;
	enum confirmation confirmed;
	char *confirm_why; /* CONFIRM_FAILED: what became of the simulated run */
	size_t trial;
	double after_s;
	struct hunt_trial smallest;
	bool shrunk; /* smallest is the end of a shrink, not just the first trial */
	char *saved; /* --save: the reproducer's path */
	bool at_own_group; /* some trial at a work-group shape of the launch as given showed it */
};

struct hunt_state {
	const struct hunt_trial *trials;
	size_t ntrials;
	size_t begin; /* the first trial the children run: those before it have run */
	size_t done, not_applicable;
	struct run_tally tally;	 /* the trials that applied, by what became of them */
	const char *fixed_group; /* why the sweep kept the own work-group shape, or NULL */
	char *skip_why;		 /* the first skip's reason */
	/* The last build error or crash of an optimised trial; VERDICT_PASS: none. */
	enum verdict optimised_broke;
	/* The earliest trial of the sweep's order that gave nothing to judge (a time-out, a
	 * crash, a build error), with its verdict and why; failed_index SIZE_MAX: none. The
	 * count alone says neither which launch to look at nor what became of it. */
	size_t failed_index;
	struct hunt_trial failed_trial; /* a copy: the sweep compacts its trials after the probe */
	enum verdict failed_verdict;
	char *failed_why;
	size_t suppressed; /* findings a case's suppress: list matched, left out */
	/* The launches the launch as given stands for (NULL while shrinking). */
	const struct own_launches *own;
	enum verdict plain_verdict; /* what became of the plain run, the launch as given */
	struct found *found;
	size_t nfound;
	uint64_t start_ns;
	/* While shrinking: the finding each trial is asked to show, and whether it did. */
	const struct finding *watch;
	bool *shows;
	/* While confirming on another checker: the same mistake at the same line is enough,
	 * since which access of the pair a checker meets second, and so calls the other, can
	 * vary with the order work-items run in. */
	bool same_place;
	const char *phase; /* for the progress line: "sweep" or "shrink" */
	/* A launch's limit once its program is built, where shorter than the timeout the
	 * build keeps (0: the timeout): a cold build is no sign of a launch too slow. */
	unsigned run_limit_s;
};

/* What one child of the sweep runs: trials first, first + step, ... */
struct sweep_job {
	const struct hunt_target *t;
	const struct hunt_state *st;
	size_t first, step;
	unsigned timeout_s;
};

static void sweep_child(void *ctx, int fd)
{
	const struct sweep_job *job = ctx;
	const struct hunt_state *st = job->st;
	/* A shrink asks each trial whether it shows its finding as it was found, which only
	 * a trial that classifies it itself can answer. */
	struct finding_list settled = { 0 };
	for (size_t i = 0; i < st->nfound && st->watch == NULL; i++)
		finding_list_settle(&settled, &st->found[i].finding);
	run_trials(job->t, st->trials, st->ntrials, job->first, job->step, job->timeout_s,
		   st->run_limit_s, st->watch ? NULL : &settled, fd);
	finding_list_free(&settled);
}

static void take_result(struct hunt_state *st, struct result *r)
{
	char *end;
	unsigned long long index = r->case_name ? strtoull(r->case_name, &end, 10) : 0;
	if (r->case_name == NULL || *end != '\0' || index >= st->ntrials)
		return;
	st->done++;
	size_t failed_before = st->tally.failed;
	if (r->verdict == VERDICT_CASE_ERROR)
		st->not_applicable++;
	else
		run_tally_take(&st->tally, r);
	if (r->verdict == VERDICT_SKIP && st->skip_why == NULL && r->message)
		st->skip_why = xstrdup(r->message);
	bool optimised_broke = (r->verdict == VERDICT_BUILD_ERROR || r->verdict == VERDICT_CRASH) &&
			       st->trials[index].optimised;
	if (optimised_broke)
		st->optimised_broke = r->verdict;
	/* Failed as the tally counts it; an optimised build Oclgrind cannot simulate is said
	 * apart, as the build left out. */
	if (st->tally.failed > failed_before && !optimised_broke && index < st->failed_index) {
		const char *why = r->message ? r->message : "";
		st->failed_index = (size_t)index;
		st->failed_trial = st->trials[index];
		st->failed_verdict = r->verdict;
		free(st->failed_why);
		st->failed_why = xstrndup(why, strcspn(why, "\n"));
	}
	if (st->watch) {
		/* A smaller launch shows the finding only as it was found: a race of differing
		 * values shrunk to one whose writes store the same value would leave a
		 * reproducer that calls it benign. */
		for (size_t i = 0; i < r->findings.count; i++)
			if (st->same_place
				    ? finding_same_place(st->watch, &r->findings.items[i])
				    : finding_same(st->watch, &r->findings.items[i]) &&
					      r->findings.items[i].severity <= st->watch->severity)
				st->shows[index] = true;
		return;
	}
	if (index == 0 && st->begin == 0)
		st->plain_verdict = r->verdict;
	bool own_group = false, own_size = st->own == NULL || st->own->nsizes == 0;
	for (size_t g = 0; st->own && g < st->own->ngroups; g++)
		own_group |= same_shape(&st->own->groups[g], &st->trials[index].l);
	for (size_t g = 0; st->own && g < st->own->nsizes; g++)
		own_size |= same_shape(&st->own->sizes[g], &st->trials[index].n);
	own_group &= own_size;
	for (size_t i = 0; i < r->findings.count; i++) {
		const struct finding *f = &r->findings.items[i];
		if (f->suppressed) {
			st->suppressed++;
			continue;
		}
		/* A trial cut short is counted as such; it is no bug of the kernel to shrink. */
		if (f->kind == FINDING_TRUNCATED)
			continue;
		bool seen = false;
		for (size_t k = 0; k < st->nfound && !seen; k++) {
			struct found *known = &st->found[k];
			seen = finding_same(&known->finding, f);
			if (!seen)
				continue;
			known->at_own_group |= own_group;
			/* Shown as more than it was (a race whose writes differed, where an
			 * earlier trial's stored the same value): that is what it is, and
			 * this trial is the first to show it so. */
			if (f->severity < known->finding.severity) {
				finding_free(&known->finding);
				finding_copy(&known->finding, f);
				known->trial = (size_t)index;
				known->after_s = (clock_now_ns() - st->start_ns) / 1e9;
			} else if (f->severity == known->finding.severity &&
				   index < known->trial) {
				/* Shown again by an earlier trial of the sweep's order: that
				 * one is the one to name, being the cheaper, and its work-items
				 * and count the ones to show with it, whichever child's result
				 * came first. */
				finding_free(&known->finding);
				finding_copy(&known->finding, f);
				known->trial = (size_t)index;
			}
		}
		if (seen)
			continue;
		st->found = xreallocarray(st->found, st->nfound + 1, sizeof *st->found);
		struct found *nf = &st->found[st->nfound++];
		*nf = (struct found){ .trial = (size_t)index,
				      .after_s = (clock_now_ns() - st->start_ns) / 1e9,
				      .at_own_group = own_group };
		finding_copy(&nf->finding, f);
	}
}

/* Reads what a child sent; returns false once its pipe has closed. */
static bool read_child(struct hunt_state *st, struct hunt_child *c)
{
	char chunk[65536];
	ssize_t got = read(c->fd, chunk, sizeof chunk);
	if (got < 0 && errno == EINTR)
		return true;
	if (got <= 0)
		return false;
	strbuf_append(&c->got, chunk, (size_t)got);
	size_t used = 0;
	for (;;) {
		enum frame_type type;
		const char *payload;
		size_t len;
		long frame =
			wire_split(c->got.data + used, c->got.len - used, &type, &payload, &len);
		if (frame <= 0)
			break;
		used += (size_t)frame;
		struct result r = { 0 };
		if (type == FRAME_RESULT && wire_read_result(payload, len, &r) == 0)
			take_result(st, &r);
		result_free(&r);
	}
	if (used > 0) {
		memmove(c->got.data, c->got.data + used, c->got.len - used);
		c->got.len -= used;
	}
	return true;
}

static void show_progress(const struct hunt_state *st, const char *label, double budget_s)
{
	fprintf(stderr, "\r\033[Khunt %s, %s: %zu of %zu trials, %zu finding%s, %.0f of %.0f s",
		label, st->phase, st->done, st->ntrials, st->nfound, st->nfound == 1 ? "" : "s",
		(clock_now_ns() - st->start_ns) / 1e9, budget_s);
	fflush(stderr);
}

/* Runs the trials in `jobs` children until all are done or the budget is spent. Returns
 * whether the budget (or a stop signal) ended it first. */
static bool run_sweep(const struct hunt_target *t, struct hunt_state *st, unsigned jobs,
		      unsigned timeout_s, double budget_s, bool progress)
{
	if (jobs > st->ntrials - st->begin)
		jobs = (unsigned)(st->ntrials - st->begin);
	struct hunt_child *kids = xcalloc(jobs, sizeof *kids);
	size_t running = 0;
	int *fds = xcalloc(jobs, sizeof *fds);
	for (unsigned k = 0; k < jobs; k++) {
		struct sweep_job job = { t, st, st->begin + k, jobs, timeout_s };
		kids[running].pid = child_start(sweep_child, &job, fds, running, &fds[running]);
		kids[running].fd = fds[running];
		running++;
	}
	free(fds);
	uint64_t deadline = st->start_ns + (uint64_t)(budget_s * 1e9);
	bool cut_short = false;
	while (running > 0) {
		uint64_t now = clock_now_ns();
		if (now >= deadline || interrupt_signal()) {
			cut_short = true;
			for (size_t i = 0; i < running; i++)
				kill(kids[i].pid, SIGKILL);
		}
		struct pollfd *pfds = xcalloc(running, sizeof *pfds);
		for (size_t i = 0; i < running; i++)
			pfds[i] = (struct pollfd){ .fd = kids[i].fd, .events = POLLIN };
		int wait_ms = cut_short ? 100 : (int)((deadline - now) / 1000000 + 1);
		if (progress && wait_ms > 250)
			wait_ms = 250;
		poll(pfds, running, wait_ms);
		for (size_t i = running; i-- > 0;) {
			if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (read_child(st, &kids[i]))
				continue;
			int status;
			while (waitpid(kids[i].pid, &status, 0) < 0 && errno == EINTR)
				;
			interrupt_untrack(kids[i].pid);
			close(kids[i].fd);
			strbuf_free(&kids[i].got);
			kids[i] = kids[--running];
		}
		free(pfds);
		if (progress)
			show_progress(st, t->label, budget_s);
	}
	if (progress)
		fputs("\r\033[K", stderr);
	free(kids);
	return cut_short;
}

static int by_trial(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	return x->trial < y->trial ? -1 : x->trial > y->trial;
}

/* ---- shrinking a finding to its smallest launch --------------------------------------- */

/* How simple a value set is, for choosing between reproducers: zeros before values that
 * collide, before random ones; the scalar sets say what the scalars are, and stay. */
static int set_rank(enum input_set set)
{
	switch (set) {
	case SET_ZEROS:
		return 0;
	case SET_NARROW:
		return 1;
	case SET_REPEATS:
		return 2;
	case SET_RANDOM:
		return 3;
	case SET_BOUNDARY:
		return 4;
	default:
		return 5;
	}
}

/* Whether a is a smaller reproducer than b: fewer items, then smaller groups, then
 * simpler values, then the build every simulated run makes. */
static bool smaller(const struct hunt_trial *a, const struct hunt_trial *b)
{
	unsigned long long na = volume(&a->n), nb = volume(&b->n);
	if (na != nb)
		return na < nb;
	unsigned long long la = volume(&a->l), lb = volume(&b->l);
	if (la != lb)
		return la < lb;
	if (set_rank(a->set) != set_rank(b->set))
		return set_rank(a->set) < set_rank(b->set);
	return !a->optimised && b->optimised;
}

/* The launches one step smaller than c: half the work-group (and N) in one dimension,
 * one group fewer in one dimension, simpler values, the program as written. */
static size_t shrink_steps(const struct hunt_trial *c, unsigned sets, bool fixed_group,
			   struct hunt_trial *out)
{
	size_t n = 0;
	for (unsigned d = 0; d < c->l.dims; d++) {
		/* A kernel pinned to its work-group shape runs at no smaller one. */
		if (c->l.d[d] > 1 && !fixed_group) {
			out[n] = *c;
			out[n].l.d[d] = c->l.d[d] / 2;
			out[n].n.d[d] = (c->n.d[d] + 1) / 2;
			n++;
		}
		if (c->n.d[d] > c->l.d[d]) {
			out[n] = *c;
			out[n].n.d[d] = c->n.d[d] - c->l.d[d];
			n++;
		}
	}
	static const enum input_set simpler[] = { SET_ZEROS, SET_NARROW, SET_REPEATS };
	for (size_t s = 0; s < 3 && !adhoc_set_is_scalar(c->set); s++) {
		if (!(sets & (1u << simpler[s])) || set_rank(simpler[s]) >= set_rank(c->set))
			continue;
		out[n] = *c;
		out[n].set = simpler[s];
		n++;
	}
	if (c->optimised) {
		out[n] = *c;
		out[n].optimised = false;
		n++;
	}
	return n;
}

/* Shrinks f's launch step by step while the same finding (kind, memory space, lines)
 * persists, until no smaller step shows it or the deadline passes. */
static void shrink(const struct hunt_target *t, struct found *f, unsigned sets, bool fixed_group,
		   unsigned jobs, unsigned timeout_s, uint64_t deadline, bool progress)
{
	for (;;) {
		uint64_t now = clock_now_ns();
		if (now >= deadline || interrupt_signal())
			return;
		struct hunt_trial steps[3 * SHAPE_MAX_DIMS + 8];
		size_t nsteps = shrink_steps(&f->smallest, sets, fixed_group, steps);
		if (nsteps == 0)
			return;
		bool shows[3 * SHAPE_MAX_DIMS + 8] = { false };
		struct hunt_state st = { .trials = steps,
					 .ntrials = nsteps,
					 .failed_index = SIZE_MAX,
					 .start_ns = now,
					 .watch = &f->finding,
					 .shows = shows,
					 .phase = "shrinking" };
		run_sweep(t, &st, jobs, timeout_s, (deadline - now) / 1e9, progress);
		free(st.skip_why);
		free(st.failed_why);
		const struct hunt_trial *best = NULL;
		for (size_t i = 0; i < nsteps; i++)
			if (shows[i] && (best == NULL || smaller(&steps[i], best)))
				best = &steps[i];
		if (best == NULL)
			return;
		f->smallest = *best;
		f->shrunk = true;
	}
}

/* ---- confirming an instrumented finding under the simulator ---------------------------- */

/* Runs f's smallest launch, as written, under Oclgrind until `deadline` and says what it
 * showed: racecheck and Oclgrind see through different means (a rewrite of the source
 * and the compiled program's every access), so each finding one reports is put to the
 * other where the launch is small enough to simulate, and a disagreement is said. */
static void confirm(const struct hunt_target *t, struct found *f, unsigned timeout_s,
		    uint64_t deadline, bool progress)
{
	if (volume(&f->smallest.n) > SHAPE_SIMULATED_ITEMS) {
		f->confirmed = CONFIRM_TOO_LARGE;
		return;
	}
	const char *no_simulator =
		backend_oclgrind.unavailable ? backend_oclgrind.unavailable() : NULL;
	if (no_simulator) {
		f->confirmed = CONFIRM_FAILED;
		f->confirm_why = xstrdup(no_simulator);
		return;
	}
	struct hunt_target on_simulator = *t;
	on_simulator.trials_on = backend_oclgrind.fixed_target;
	on_simulator.simulated = true;
	struct hunt_trial trial = f->smallest;
	trial.optimised = false;
	bool shows = false;
	uint64_t now = clock_now_ns();
	double left_s = now < deadline ? (deadline - now) / 1e9 : 0;
	/* The simulator is given a few seconds past a spent share: a confirmation cut
	 * short would leave the finding unconfirmed for want of a second. */
	if (left_s < 3)
		left_s = 3;
	if (timeout_s > left_s)
		timeout_s = (unsigned)left_s + 1;
	struct hunt_state st = { .trials = &trial,
				 .ntrials = 1,
				 .failed_index = SIZE_MAX,
				 .start_ns = now,
				 .watch = &f->finding,
				 .shows = &shows,
				 .same_place = true,
				 .phase = "confirming under Oclgrind" };
	(void)run_sweep(&on_simulator, &st, 1, timeout_s, left_s, progress);
	if (shows) {
		f->confirmed = CONFIRM_SHOWN;
	} else if (st.tally.ran == 1 && st.tally.cut_short == 0) {
		f->confirmed = CONFIRM_NOT_SHOWN;
	} else {
		f->confirmed = CONFIRM_FAILED;
		if (st.failed_index != SIZE_MAX)
			f->confirm_why =
				xasprintf("%s: %s", verdict_name(st.failed_verdict), st.failed_why);
		else if (st.tally.cut_short)
			f->confirm_why = xstrdup("it stopped reporting part-way through");
		else if (st.tally.skipped)
			f->confirm_why = xasprintf("skip: %s", st.skip_why ? st.skip_why : "");
		else
			f->confirm_why = xasprintf("no result within %.0f s", left_s);
	}
	free(st.skip_why);
	free(st.failed_why);
}

/* ---- a reproducer saved as a case ----------------------------------------------------- */

/* A node parsed from YAML text that the document keeps: libfyaml builds nodes over the
 * text without copying it. */
static struct fy_node *yaml_node(struct fy_document *doc, const char *text)
{
	char *kept = xstrdup(text);
	return fy_node_build_from_malloc_string(doc, kept, strlen(kept));
}

/* Sets key's value in a mapping to the YAML text `value`, adding the key if missing. */
static void set_key(struct fy_document *doc, struct fy_node *map, const char *key,
		    const char *value)
{
	struct fy_node *v = yaml_node(doc, value);
	struct fy_node_pair *pair = fy_node_mapping_lookup_pair_by_string(map, key, FY_NT);
	if (pair)
		fy_node_pair_set_value(pair, v);
	else
		fy_node_mapping_append(map, yaml_node(doc, key), v);
}

static void drop_key(struct fy_document *doc, struct fy_node *map, const char *key)
{
	if (fy_node_mapping_lookup_by_string(map, key, FY_NT))
		fy_node_mapping_remove_by_key(map, yaml_node(doc, key));
}

/* A shape as a case's sizes: or local: list holds it: [64] or [[64, 32]]. */
static void shape_list(const struct shape *s, char *buf, size_t size)
{
	char text[SHAPE_TEXT_MAX];
	shape_format(s, text);
	if (s->dims == 1) {
		snprintf(buf, size, "[%s]", text);
		return;
	}
	for (char *x = strchr(text, 'x'); x; x = strchr(x, 'x'))
		*x = ',';
	snprintf(buf, size, "[[%s]]", text);
}

/* The args of one launch in a reproducer: inputs take the trial's set, and no buffer is
 * an output, since a reproducer compares nothing. */
static void rewrite_args(struct fy_document *doc, struct fy_node *args, const struct test_case *tc,
			 enum input_set set)
{
	int count = args ? fy_node_sequence_item_count(args) : 0;
	for (int i = 0; i < count; i++) {
		struct fy_node *arg = fy_node_sequence_get_by_index(args, i);
		if (!fy_node_is_mapping(arg))
			continue;
		drop_key(doc, arg, "output");
		struct fy_node *init = fy_node_mapping_lookup_by_string(arg, "init", FY_NT);
		struct fy_node *name = fy_node_mapping_lookup_by_string(arg, "name", FY_NT);
		if (init == NULL || (fy_node_is_mapping(init) &&
				     fy_node_mapping_lookup_by_string(init, "file", FY_NT)))
			continue;
		enum elem_type type = ELEM_FLOAT;
		bool is_record = false;
		const char *text = name ? fy_node_get_scalar0(name) : NULL;
		for (size_t b = 0; text && b < tc->nbuffers; b++)
			if (strcmp(tc->buffers[b].name, text) == 0) {
				type = tc->buffers[b].type;
				is_record = tc->buffers[b].record != NULL;
			}
		char *value = adhoc_set_init(set, type, is_record);
		if (value)
			set_key(doc, arg, "init", value);
		free(value);
	}
}

/* Writes the reproducer of f to DIR/NAME-hunt-K.yaml; returns its path, or NULL after
 * saying why. */
static char *save_reproducer(const struct hunt_target *t, const struct found *f, size_t k,
			     const char *dir)
{
	const struct hunt_trial *tr = &f->smallest;
	const char *base = strrchr(t->label, '/');
	base = base ? base + 1 : t->label;
	size_t stem = strcspn(base, ".");
	char *path = xasprintf("%s/%.*s-hunt-%zu.yaml", dir, (int)stem, base, k + 1);
	char n[SHAPE_TEXT_MAX + 8], l[SHAPE_TEXT_MAX + 8], trial[200];
	shape_list(&tr->n, n, sizeof n);
	shape_list(&tr->l, l, sizeof l);
	hunt_trial_text(tr, t->case_path != NULL, trial, sizeof trial);
	char *text = NULL;
	if (t->case_path == NULL) {
		char *kernel_file = adhoc_kernel_file_for(path, t->rq->kernel_path);
		if (kernel_file) {
			struct adhoc_request rq = *t->rq;
			rq.global = tr->n;
			rq.local = tr->l;
			char *body = adhoc_case_text(&rq, &t->sig, &t->binding, tr->set,
						     kernel_file, t->spec_line);
			text = xasprintf("# The smallest launch clharness hunt found to show a "
					 "finding: %s.\n%s%s",
					 trial, body,
					 tr->optimised ? "sim_build: optimised\n" : "");
			free(body);
		}
		free(kernel_file);
	} else {
		struct diag_list diags = { 0 };
		struct test_case *tc = case_load(t->case_path, &diags);
		diag_list_free(&diags);
		struct fy_document *doc = fy_document_build_from_file(NULL, t->case_path);
		struct fy_node *root = doc ? fy_document_root(doc) : NULL;
		bool ok = tc && root && fy_node_is_mapping(root);
		if (ok) {
			char about[400];
			snprintf(about, sizeof about,
				 "'the smallest launch clharness hunt found to show a finding of "
				 "%s: %s'",
				 tc->name, trial);
			set_key(doc, root, "about", about);
			set_key(doc, root, "sizes", n);
			set_key(doc, root, "sim_sizes", n);
			set_key(doc, root, "local", l);
			set_key(doc, root, "sim_local", l);
			drop_key(doc, root, "check");
			if (tr->optimised)
				set_key(doc, root, "sim_build", "optimised");
			else
				drop_key(doc, root, "sim_build");
			rewrite_args(doc, fy_node_mapping_lookup_by_string(root, "args", FY_NT), tc,
				     tr->set);
			struct fy_node *steps =
				fy_node_mapping_lookup_by_string(root, "steps", FY_NT);
			struct fy_node *kernel =
				fy_node_mapping_lookup_by_string(root, "kernel", FY_NT);
			for (size_t s = 0; s < tc->nsteps && ok; s++) {
				struct fy_node *step =
					steps ? fy_node_sequence_get_by_index(steps, (int)s) : NULL;
				struct fy_node *names = step ? fy_node_mapping_lookup_by_string(
								       step, "kernel", FY_NT)
							     : kernel;
				if (step)
					rewrite_args(doc,
						     fy_node_mapping_lookup_by_string(step, "args",
										      FY_NT),
						     tc, tr->set);
				char *file = adhoc_kernel_file_for(path, tc->steps[s].kernel_path);
				ok = file != NULL;
				if (file && names && fy_node_is_mapping(names)) {
					char *quoted = xasprintf("'%s'", file);
					set_key(doc, names, "file", quoted);
					free(quoted);
				}
				free(file);
			}
		}
		if (ok)
			text = fy_emit_document_to_string(doc, FYECF_MODE_PRETTY | FYECF_WIDTH_INF |
								       FYECF_INDENT_2);
		if (doc)
			fy_document_destroy(doc);
		case_free(tc);
	}
	if (text == NULL) {
		free(path);
		return NULL;
	}
	FILE *out = fopen(path, "w");
	bool written = out && fputs(text, out) >= 0;
	if (out && fclose(out) != 0)
		written = false;
	if (!written)
		fprintf(stderr, "clharness: cannot write %s: %s\n", path, strerror(errno));
	free(text);
	if (!written) {
		free(path);
		return NULL;
	}
	return path;
}

/* ---- the report ---------------------------------------------------------------------- */

/* What the simulator said of f, for a note; false where it was not asked. */
static bool confirmation_text(const struct found *f, struct strbuf *out)
{
	switch (f->confirmed) {
	case CONFIRM_NOT_ASKED:
		return false;
	case CONFIRM_SHOWN:
		strbuf_puts(out, "Oclgrind shows it too at that launch");
		break;
	case CONFIRM_NOT_SHOWN:
		strbuf_puts(out, "Oclgrind ran that launch to its end without showing it: "
				 "racecheck and Oclgrind disagree here; `clharness run --device "
				 "oclgrind` on the launch (hunt --save writes it as a case) shows "
				 "what the simulator sees");
		break;
	case CONFIRM_TOO_LARGE:
		strbuf_printf(out,
			      "not confirmed under Oclgrind: the launch is more than the %d "
			      "work-items it simulates",
			      SHAPE_SIMULATED_ITEMS);
		break;
	case CONFIRM_FAILED:
		strbuf_printf(out,
			      "not confirmed under Oclgrind, which gave nothing to judge at "
			      "that launch: %s",
			      f->confirm_why ? f->confirm_why : "");
		break;
	}
	return true;
}

static const char *confirmation_name(enum confirmation c)
{
	static const char *const names[] = {
		[CONFIRM_NOT_ASKED] = "not-asked", [CONFIRM_SHOWN] = "shown",
		[CONFIRM_NOT_SHOWN] = "not-shown", [CONFIRM_TOO_LARGE] = "too-large",
		[CONFIRM_FAILED] = "failed",
	};
	return names[c];
}

/* A trial as JSON, its shapes as a run's JSON gives them:
 * {"inputs":"zeros","N":24,"L":8,"build":"optimised"}. */
static void json_trial(struct strbuf *out, const struct hunt_trial *t)
{
	strbuf_printf(out, "{\"inputs\":\"%s\",\"N\":", adhoc_set_name(t->set));
	report_json_shape(out, &t->n);
	strbuf_puts(out, ",\"L\":");
	report_json_shape(out, &t->l);
	strbuf_printf(out, ",\"build\":\"%s\"}", t->optimised ? "optimised" : "as-written");
}

/* The hunt of one target as JSON Lines for machines: an object a finding, with the trial
 * that first showed it and the smallest launch, then one with the sweep's counts. */
static void report_hunt_json(const struct hunt_target *t, const struct hunt_state *st,
			     unsigned jobs, bool cut_short, enum verdict optimised_broke,
			     size_t errors, size_t warnings, size_t plain, struct strbuf *out)
{
	for (size_t i = 0; i < st->nfound; i++) {
		const struct found *f = &st->found[i];
		strbuf_puts(out, "{\"target\":");
		json_string(out, t->label);
		strbuf_puts(out, ",\"finding\":");
		report_json_finding(out, &f->finding);
		strbuf_printf(out, ",\"first_trial\":%zu,\"plain_run\":%s,\"first\":", f->trial + 1,
			      f->trial == 0 ? "true" : "false");
		json_trial(out, &st->trials[f->trial]);
		strbuf_printf(out, ",\"after_s\":%.3f,\"smallest\":", f->after_s);
		json_trial(out, &f->smallest);
		strbuf_printf(out, ",\"shrunk\":%s,\"oclgrind\":\"%s\",\"saved\":",
			      f->shrunk ? "true" : "false", confirmation_name(f->confirmed));
		if (f->saved)
			json_string(out, f->saved);
		else
			strbuf_puts(out, "null");
		strbuf_puts(out, "}\n");
	}
	strbuf_puts(out, "{\"target\":");
	json_string(out, t->label);
	strbuf_printf(
		out,
		",\"summary\":{\"trials_on\":\"%s\",\"trials\":%zu,\"trials_run\":%zu,\"seconds\":%.1f,"
		"\"jobs\":%u,\"errors\":%zu,\"warnings\":%zu,\"by_plain_run\":%zu,"
		"\"not_applicable\":%zu,\"ran_to_end\":%zu,\"incomplete\":%zu,"
		"\"failed\":%zu,\"first_failed\":",
		t->trials_on, st->ntrials, st->done, (clock_now_ns() - st->start_ns) / 1e9, jobs,
		errors, warnings, plain, st->not_applicable, st->tally.ran, st->tally.cut_short,
		st->tally.failed);
	if (st->failed_index != SIZE_MAX) {
		strbuf_printf(out,
			      "{\"trial\":%zu,\"verdict\":\"%s\",\"launch\":", st->failed_index + 1,
			      verdict_name(st->failed_verdict));
		json_trial(out, &st->failed_trial);
		strbuf_puts(out, ",\"message\":");
		json_string(out, st->failed_why);
		strbuf_puts(out, "}");
	} else {
		strbuf_puts(out, "null");
	}
	strbuf_printf(out, ",\"skipped\":%zu,\"suppressed\":%zu,\"optimised_left_out\":",
		      st->tally.skipped, st->suppressed);
	if (optimised_broke != VERDICT_PASS)
		json_string(out, verdict_name(optimised_broke));
	else
		strbuf_puts(out, "null");
	strbuf_puts(out, ",\"fixed_group\":");
	if (st->fixed_group)
		json_string(out, st->fixed_group);
	else
		strbuf_puts(out, "null");
	strbuf_puts(out, ",\"cut_short\":");
	if (cut_short)
		json_string(out, interrupt_signal() ? "stopped" : "budget");
	else
		strbuf_puts(out, "null");
	/* What it chose for the arguments no --arg gives, at the launch as given. */
	struct chosen_value *chosen = NULL;
	size_t nchosen = t->rq ? adhoc_choices(t->rq, &t->sig, &t->binding, &chosen) : 0;
	strbuf_puts(out, ",\"chosen\":");
	report_json_chosen(out, chosen, nchosen);
	chosen_values_free(chosen, nchosen);
	strbuf_puts(out, "}}\n");
}

/* "the first trial that failed, trial 8 (zeros inputs, N=1 L=1, built as written), gave
 * timeout: no result after 2 s: ...". */
static void first_failed_text(const struct hunt_target *t, const struct hunt_state *st,
			      struct strbuf *out)
{
	char trial[200];
	hunt_trial_text(&st->failed_trial, t->case_path != NULL, trial, sizeof trial);
	strbuf_printf(out, "the first trial that failed, trial %zu (%s%s), gave %s: %s",
		      st->failed_index + 1, trial,
		      st->failed_index == 0 ? ", the plain run: the launch as given" : "",
		      verdict_name(st->failed_verdict), st->failed_why);
}

/* Reports what the sweep of one target found; returns its errors. optimised_broke: why
 * the optimised build was left out of the sweep (VERDICT_PASS: it was not). */
static size_t report_hunt(const struct hunt_target *t, struct hunt_state *st, unsigned jobs,
			  bool cut_short, enum verdict optimised_broke, struct reporter *rp)
{
	struct strbuf text = { 0 };
	size_t errors = 0, warnings = 0, plain = 0;
	for (size_t i = 0; i < st->nfound; i++) {
		errors += st->found[i].finding.severity == DIAG_ERROR;
		warnings += st->found[i].finding.severity == DIAG_WARNING;
		plain += st->found[i].trial == 0;
	}
	for (size_t i = 0; rp->findlog && i < st->nfound; i++) {
		char trial[200];
		hunt_trial_text(&st->trials[st->found[i].trial], t->case_path != NULL, trial,
				sizeof trial);
		findlog_add_finding(rp->findlog, &st->found[i].finding, t->label, trial);
	}
	if (rp->findlog && st->tally.cut_short)
		findlog_incomplete(rp->findlog, "Oclgrind stopped reporting part-way through a trial, "
					    "so what came after in it was never checked");
	struct strbuf unchecked = { 0 };
	bool nothing_checked = run_tally_unchecked(&unchecked, &st->tally, "trial");
	if (rp->findlog && nothing_checked)
		findlog_incomplete(rp->findlog, unchecked.data);
	if (rp->findlog && st->failed_index != SIZE_MAX) {
		/* A launch that gave nothing to judge was not checked: a page or a code
		 * scanning run without it must not read as a whole one. */
		struct strbuf why = { 0 };
		strbuf_printf(&why, "%zu trial%s gave nothing to judge; ", st->tally.failed,
			      st->tally.failed == 1 ? "" : "s");
		first_failed_text(t, st, &why);
		findlog_incomplete(rp->findlog, why.data);
		strbuf_free(&why);
	}
	if (rp->format == REPORT_JSON) {
		report_hunt_json(t, st, jobs, cut_short, optimised_broke, errors, warnings, plain,
				 &text);
		fputs(text.data, rp->out);
		fflush(rp->out);
		strbuf_free(&text);
		strbuf_free(&unchecked);
		return errors;
	}
	for (size_t i = 0; i < st->nfound; i++) {
		const struct found *f = &st->found[i];
		report_finding(&text, &f->finding, t->label, NULL, rp->colour);
		char trial[200], msg[400];
		hunt_trial_text(&st->trials[f->trial], t->case_path != NULL, trial, sizeof trial);
		const char *file = f->finding.file ? f->finding.file : t->label;
		snprintf(msg, sizeof msg, "first shown by trial %zu of %zu%s: %s", f->trial + 1,
			 st->ntrials, f->trial == 0 ? ", the plain run" : "", trial);
		diag_render_header(&text, file, f->finding.at.line, f->finding.at.col, DIAG_NOTE,
				   msg, rp->colour);
		hunt_trial_text(&f->smallest, t->case_path != NULL, trial, sizeof trial);
		snprintf(msg, sizeof msg, "the smallest launch that shows it%s: %s%s%s",
			 f->shrunk ? "" : " (no smaller one showed it)", trial,
			 f->saved ? "; saved as " : "", f->saved ? f->saved : "");
		diag_render_header(&text, file, f->finding.at.line, f->finding.at.col, DIAG_NOTE,
				   msg, rp->colour);
		struct strbuf said = { 0 };
		if (confirmation_text(f, &said))
			diag_render_header(&text, file, f->finding.at.line, f->finding.at.col,
					   f->confirmed == CONFIRM_NOT_SHOWN ? DIAG_WARNING
									     : DIAG_NOTE,
					   said.data, rp->colour);
		strbuf_free(&said);
	}
	double took = (clock_now_ns() - st->start_ns) / 1e9;
	strbuf_printf(
		&text,
		"hunt: %s: %zu of %zu trials in %.1f s on %s, %u at a time: %zu error%s and %zu "
		"warning%s found, %zu of them by the plain run (its own shape, %s "
		"inputs, built as written); %zu trial%s did not apply (a shape its "
		"expressions refuse); of the others, ",
		t->label, st->done, st->ntrials, took, t->trials_on, jobs, errors,
		errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", plain,
		t->case_path ? "its own" : "random", st->not_applicable,
		st->not_applicable == 1 ? "" : "s");
	run_tally_text(&text, &st->tally, "trials");
	if (optimised_broke != VERDICT_PASS)
		strbuf_printf(&text,
			      "; the optimised build was left out: Oclgrind could not simulate "
			      "it (%s at the plain run's shape)",
			      verdict_name(optimised_broke));
	if (st->suppressed)
		strbuf_printf(&text, "; %zu suppressed finding%s left out", st->suppressed,
			      st->suppressed == 1 ? "" : "s");
	if (st->fixed_group)
		strbuf_printf(&text, "; no other work-group shape was tried: %s", st->fixed_group);
	if (!t->simulated) {
		size_t said[CONFIRM_FAILED + 1] = { 0 };
		for (size_t i = 0; i < st->nfound; i++)
			said[st->found[i].confirmed]++;
		strbuf_printf(
			&text,
			"; Oclgrind confirmed %zu finding%s at its smallest launch, disagreed "
			"on %zu and could not judge %zu; uninitialised values are the "
			"simulator's alone to see (--device oclgrind hunts them)",
			said[CONFIRM_SHOWN], said[CONFIRM_SHOWN] == 1 ? "" : "s",
			said[CONFIRM_NOT_SHOWN], said[CONFIRM_TOO_LARGE] + said[CONFIRM_FAILED]);
	}
	if (cut_short)
		strbuf_printf(&text, "; %s before %zu trial%s ran",
			      interrupt_signal() ? "stopped" : "the budget ran out",
			      st->ntrials - st->done, st->ntrials - st->done == 1 ? "" : "s");
	strbuf_puts(&text, "\n");
	if (st->tally.cut_short)
		strbuf_printf(&text,
			      "hunt: %s: Oclgrind stopped reporting part-way through %zu trial%s, "
			      "so what came after in them was never checked\n",
			      t->label, st->tally.cut_short, st->tally.cut_short == 1 ? "" : "s");
	if (st->failed_index != SIZE_MAX) {
		strbuf_printf(&text, "hunt: %s: ", t->label);
		first_failed_text(t, st, &text);
		strbuf_puts(&text, "\n");
	}
	if (nothing_checked) {
		struct strbuf why = { 0 };
		strbuf_printf(&why, "nothing was checked: %s%s%s", unchecked.data,
			      st->skip_why ? "; " : "", st->skip_why ? st->skip_why : "");
		strbuf_printf(&text, "hunt: %s: %s\n", t->label, why.data);
		annotate_diag(t->label, 0, 0,
			      run_tally_status(&st->tally) == EXIT_SKIP ? DIAG_WARNING : DIAG_ERROR,
			      why.data);
		strbuf_free(&why);
	}
	fputs(text.data, rp->out);
	fflush(rp->out);
	strbuf_free(&text);
	strbuf_free(&unchecked);
	return errors;
}

/* ---- the command ---------------------------------------------------------------------- */

/* The shape and input sets a target's sweep starts from; -1 when it cannot be hunted. */
static int target_model(const struct hunt_target *t, bool any_local, struct hunt_model *m)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = load_target(t, SET_RANDOM, &diags);
	if (tc == NULL) {
		struct strbuf msg = { 0 };
		diag_list_render(&msg, &diags, false);
		fprintf(stderr, "%s", msg.data ? msg.data : "");
		strbuf_free(&msg);
		diag_list_free(&diags);
		return -1;
	}
	diag_list_free(&diags);
	*m = (struct hunt_model){ 0 };
	m->n = tc->nsim_sizes ? tc->sim_sizes[0] : tc->sizes[0];
	m->l = tc->nsim_locals ? tc->sim_locals[0] : tc->locals[0];
	for (int s = 0; s < SET_COUNT; s++) {
		bool scalar = adhoc_set_is_scalar((enum input_set)s);
		if (t->case_path ? !scalar
				 : adhoc_set_applies((enum input_set)s, &t->sig, &t->binding))
			m->sets |= 1u << s;
	}
	/* A case's expressions may round N up to whole work-groups; a kernel checked as
	 * check takes it launches N items, which must be whole work-groups. */
	m->ragged = t->case_path != NULL;
	/* A check of values at one launch (at:) is a captured application's: that launch is
	 * the one it makes. */
	for (size_t c = 0; c < tc->nchecks; c++)
		m->captured |= tc->checks[c].has_at;
	struct own_launches *own = &m->own;
	own->ngroups = tc->nlocals + tc->nsim_locals;
	own->groups = xcalloc(own->ngroups ? own->ngroups : 1, sizeof *own->groups);
	for (size_t i = 0; i < tc->nlocals; i++)
		own->groups[i] = tc->locals[i];
	for (size_t i = 0; i < tc->nsim_locals; i++)
		own->groups[tc->nlocals + i] = tc->sim_locals[i];
	/* A captured application's sizes are the launches it makes, the simulator's smaller
	 * one standing in for a big one; --any-local takes any. */
	own->nsizes = m->captured && !any_local ? tc->nsizes + tc->nsim_sizes : 0;
	own->sizes = xcalloc(own->nsizes ? own->nsizes : 1, sizeof *own->sizes);
	for (size_t i = 0; own->nsizes && i < tc->nsizes; i++)
		own->sizes[i] = tc->sizes[i];
	for (size_t i = 0; own->nsizes && i < tc->nsim_sizes; i++)
		own->sizes[tc->nsizes + i] = tc->sim_sizes[i];
	case_free(tc);
	return 0;
}

/* Marks a warning each finding that only work-group shapes the sweep chose showed, none
 * the launch as given uses: a kernel may never be launched so, and its findings there
 * are no verdict on it unless the user says it is meant for any shape (--any-local). */
static void mark_other_groups(struct hunt_state *st, const struct hunt_request *rq)
{
	char own[SHAPE_TEXT_MAX * 2] = "";
	for (size_t g = 0; g < st->own->ngroups && strlen(own) < SHAPE_TEXT_MAX; g++) {
		char text[SHAPE_TEXT_MAX];
		snprintf(own + strlen(own), sizeof own - strlen(own), "%s%s", g ? ", " : "",
			 shape_format(&st->own->groups[g], text));
	}
	for (size_t i = 0; i < st->nfound; i++) {
		struct found *f = &st->found[i];
		if (f->at_own_group || rq->any_local || f->finding.severity != DIAG_ERROR)
			continue;
		char shown[SHAPE_TEXT_MAX];
		shape_format(&st->trials[f->trial].l, shown);
		free(f->finding.rests_on);
		if (st->own->nsizes > 0) {
			char run[SHAPE_RUN_TEXT_MAX];
			shape_run_text(&st->trials[f->trial].n, &st->trials[f->trial].l, " ", run);
			f->finding.rests_on = xasprintf(
				"only launches the captured application does not make showed it "
				"(%s and others the sweep chose); hunt with --any-local where the "
				"kernel is meant for other launches too",
				run);
		} else {
			f->finding.rests_on = xasprintf(
				"only work-groups of %s and others the sweep chose showed it, none "
				"the launch as given uses (%s); a kernel meant for its own shape "
				"alone may be fine: hunt with --fixed-local to try that shape alone, "
				"or with --any-local where the kernel is meant for every shape",
				shown, own);
		}
		f->finding.severity = DIAG_WARNING;
	}
}

/* Why the sweep must keep the target's own work-group shape `l`, or NULL where it may
 * try others: the case is a captured application's launch (unless --any-local), the
 * kernel requires it (reqd_work_group_size), the user said so (--fixed-local), or a
 * local array of the kernel is sized for it, so that any larger
 * group would run past the array: findings from shapes the application never launches
 * would be no bugs of it. Caller frees. */
static char *fixed_group_reason(const struct hunt_target *t, const struct hunt_request *rq,
				const struct shape *l, bool captured)
{
	char text[SHAPE_TEXT_MAX];
	shape_format(l, text);
	if (captured && !rq->any_local)
		return xasprintf("it is a captured application's launch, whose work-groups are %s "
				 "(--any-local tries others)",
				 text);
	if (t->rq == NULL)
		return NULL;
	if (t->sig.reqd_local[0])
		return xasprintf("the kernel requires work-groups of %zux%zux%zu "
				 "(reqd_work_group_size)",
				 t->sig.reqd_local[0], t->sig.reqd_local[1], t->sig.reqd_local[2]);
	if (rq->fixed_local)
		return xasprintf("--fixed-local keeps work-groups of %s", text);
	const struct kernel_source *src = &t->binding.source;
	for (size_t i = 0; t->binding.have_source && i < src->nlocals; i++) {
		const struct src_local_array *a = &src->locals[i];
		for (unsigned k = 0; k < a->ndims; k++)
			for (unsigned d = 0; d < l->dims; d++)
				if (l->d[d] > 1 && a->dims[k] == l->d[d])
					return xasprintf(
						"its local array %s (line %d) is sized for "
						"work-groups of %s",
						a->name, a->line, text);
	}
	return NULL;
}

/* Hunts one target. Returns -1 when it cannot be hunted, else its exit status: 1 for
 * errors found, trials cut short or none that ran to its end, EXIT_SKIP when every trial
 * was a skip, 0 otherwise. */
static int hunt_one(const struct hunt_target *t, const struct hunt_request *rq, double budget_s,
		    unsigned jobs, struct reporter *rp)
{
	struct hunt_model m;
	if (target_model(t, rq->any_local, &m) < 0)
		return -1;
	unsigned sets = m.sets;
	struct hunt_trial *trials;
	char *fixed = fixed_group_reason(t, rq, &m.l, m.captured);
	size_t ntrials =
		hunt_plan(&m.n, &m.l, sets, SIMULATOR_MAX_GROUP, m.ragged, fixed != NULL, &trials);
	if (!t->simulated) {
		size_t kept = 0;
		for (size_t i = 0; i < ntrials; i++)
			if (!trials[i].optimised)
				trials[kept++] = trials[i];
		ntrials = kept;
	}
	uint64_t start = clock_now_ns();
	uint64_t deadline = start + (uint64_t)(budget_s * 1e9);
	/* The plain run and its optimised twin come first, alone: Oclgrind 21.10 crashes
	 * on, or refuses, some optimised programs (vector loads the optimiser widens,
	 * llvm.assume), and a build it cannot simulate should cost one trial, not half the
	 * sweep. A fifth of the budget is kept for shrinking what the sweep finds. */
	struct hunt_state st = { .trials = trials,
				 .ntrials = t->simulated ? 2 : 1,
				 .start_ns = start,
				 .phase = "sweep",
				 .failed_index = SIZE_MAX,
				 .own = &m.own,
				 .plain_verdict = VERDICT_PASS };
	/* A plain run too slow to simulate must leave the budget to the sweep's smaller
	 * launches: its launch may take a quarter of it, its build the whole timeout. */
	unsigned plain_limit = (unsigned)(budget_s / 4) > 0 ? (unsigned)(budget_s / 4) : 1;
	if (plain_limit > rq->timeout_s)
		plain_limit = rq->timeout_s;
	st.run_limit_s = plain_limit;
	bool cut_short = run_sweep(t, &st, jobs, rq->timeout_s, budget_s * 0.8, rq->progress);
	st.run_limit_s = 0;
	enum verdict optimised_broke = st.optimised_broke;
	/* Where the plain run is a skip for what the simulator lacks (doubles, say), every
	 * trial would be one: the sweep ends there. A skip for its shape alone leaves the
	 * sweep's other shapes to run. */
	bool all_skips = st.done > 0 && st.tally.skipped == st.done &&
			 !(st.skip_why && strstr(st.skip_why, "work-group"));
	if (all_skips)
		st.ntrials = ntrials;
	if (!cut_short && !all_skips) {
		size_t kept = st.begin = st.ntrials;
		for (size_t i = kept; i < ntrials; i++)
			if (optimised_broke == VERDICT_PASS || !trials[i].optimised)
				trials[kept++] = trials[i];
		st.ntrials = kept;
		cut_short = run_sweep(t, &st, jobs, rq->timeout_s, budget_s * 0.8, rq->progress);
	} else {
		st.ntrials = ntrials; /* for the count of trials that did not run */
	}
	if (st.nfound > 1) /* qsort takes no null array, even empty */
		qsort(st.found, st.nfound, sizeof *st.found, by_trial);
	for (size_t i = 0; i < st.nfound; i++) {
		struct found *f = &st.found[i];
		f->smallest = trials[f->trial];
		/* Each finding gets what is left, shared with those after it. */
		uint64_t now = clock_now_ns();
		uint64_t share = now < deadline ? (deadline - now) / (st.nfound - i) : 0;
		/* An instrumented sweep's finding keeps a third of its share for the
		 * simulator to confirm it at the launch the shrink ends at. */
		uint64_t shrink_end = now + (t->simulated ? share : share / 3 * 2);
		shrink(t, f, sets, fixed != NULL, jobs, rq->timeout_s, shrink_end, rq->progress);
		if (!t->simulated)
			confirm(t, f, rq->timeout_s, now + share, rq->progress);
		if (rq->save_dir)
			f->saved = save_reproducer(t, f, i, rq->save_dir);
	}
	st.fixed_group = fixed;
	if (fixed == NULL || m.own.nsizes > 0)
		mark_other_groups(&st, rq);
	size_t errors = report_hunt(t, &st, jobs, cut_short, optimised_broke, rp);
	free(fixed);
	for (size_t i = 0; i < st.nfound; i++) {
		finding_free(&st.found[i].finding);
		free(st.found[i].saved);
		free(st.found[i].confirm_why);
	}
	free(st.found);
	free(st.skip_why);
	free(st.failed_why);
	free(trials);
	free(m.own.groups);
	free(m.own.sizes);
	/* The launch as given hung or crashed: the hunt found that much, whatever else. */
	bool plain_failed = st.plain_verdict == VERDICT_TIMEOUT || st.plain_verdict == VERDICT_CRASH;
	return errors > 0 || st.tally.cut_short > 0 || plain_failed ? 1
								    : run_tally_status(&st.tally);
}

/* The status of a hunt of several targets from each one's: a failure anywhere fails it;
 * it is a skip only where every target was. */
static int join_status(int so_far, int one, bool first)
{
	if (one < 0 || so_far == 2)
		return 2;
	if (first || so_far == EXIT_SKIP)
		return one;
	return one == 1 ? 1 : so_far;
}

/* The one target the trials run on, into *name (caller frees) with whether it is the
 * simulator: the one --device names, which must find races; without --device, the first
 * instrumented device where kernels can be rewritten, a trial costing it milliseconds
 * where the simulator takes a second, else Oclgrind. Returns -1 after saying why none. */
static int choose_trials_target(const struct hunt_request *rq, char **name, bool *simulated)
{
	char *racecheck[] = { (char *)backend_racecheck.name };
	char *const *patterns = rq->npatterns ? rq->patterns : racecheck;
	size_t npatterns = rq->npatterns ? rq->npatterns : 1;
	*name = NULL;
	if (rq->npatterns == 0 && !instrument_available()) {
		*name = xstrdup(backend_oclgrind.fixed_target);
		*simulated = true;
		return 0;
	}
	struct run_options opt = { .repeat = 1 };
	struct selection sel;
	selection_open(&sel, patterns, npatterns, NULL, 0, &opt, 60);
	struct strbuf finders = { 0 }, others = { 0 };
	size_t nfinders = 0;
	for (size_t i = 0; i < sel.count; i++) {
		const struct target *tg = selection_target(&sel, i);
		bool finds = selection_can(&sel, i, CAN_FIND);
		struct strbuf *list = finds ? &finders : &others;
		strbuf_printf(list, "%s%s", list->len ? ", " : "", tg->name);
		if (finds && nfinders++ == 0) {
			*name = xstrdup(tg->name);
			*simulated = selection_can(&sel, i, CAN_ONLY_SMALL_SIZES);
		}
	}
	selection_free(&sel);
	int status = 0;
	if (rq->npatterns == 0 && nfinders == 0) {
		/* No device to instrument: the simulator, as before racecheck. */
		*name = xstrdup(backend_oclgrind.fixed_target);
		*simulated = true;
	} else if (nfinders == 0) {
		char *hint = selection_suggest(patterns[0]);
		fprintf(stderr,
			"clharness: hunt runs its trials where races are found, on oclgrind or a "
			"NAME+racecheck target (clharness devices lists them); --device selects %s%s%s\n",
			others.len ? others.data : "no target here",
			others.len ? ", which find nothing" : "", hint);
		free(hint);
		status = -1;
	} else if (nfinders > 1 && rq->npatterns) {
		fprintf(stderr,
			"clharness: hunt runs its trials on one target; --device selects %s: name one\n",
			finders.data);
		free(*name);
		*name = NULL;
		status = -1;
	}
	strbuf_free(&finders);
	strbuf_free(&others);
	return status;
}

int hunt_run(const struct hunt_request *rq, struct reporter *rp)
{
	uint64_t start = clock_now_ns();
	unsigned jobs = rq->jobs ? rq->jobs : parallel_threads();
	size_t targets = rq->ncases + (rq->kernel != NULL);
	int status = 0;
	char *trials_on;
	bool simulated = true;
	if (choose_trials_target(rq, &trials_on, &simulated) < 0)
		return 2;
	/* The sweeps' children are killed when the budget runs out. */
	dispatch_hold(&backend_oclgrind);
	if (!simulated)
		dispatch_hold(&backend_racecheck);
	for (size_t i = 0; i < targets && !interrupt_signal(); i++) {
		/* What is left of the budget, shared by the targets still to hunt. */
		double spent = (clock_now_ns() - start) / 1e9;
		double share = (rq->budget_s - spent) / (double)(targets - i);
		if (share <= 0)
			share = 0.001;
		struct hunt_target t = { .suppressions = rq->suppressions,
					 .trials_on = trials_on,
					 .simulated = simulated };
		if (i < rq->ncases) {
			t.label = rq->cases[i];
			t.case_path = rq->cases[i];
			status = join_status(status, hunt_one(&t, rq, share, jobs, rp), i == 0);
			continue;
		}
		t.rq = rq->kernel;
		t.label = rq->kernel->kernel_path;
		const char *slash = strrchr(t.label, '/');
		t.text_label = slash ? slash + 1 : t.label;
		t.spec_line = xcalloc(rq->kernel->nspecs + rq->kernel->nexpects + 1,
				      sizeof *t.spec_line);
		/* The kernel is read where it will run, the trials' target alone, so that no
		 * other driver is loaded into the processes that fork the trials. */
		struct adhoc_request where_trials_run = *rq->kernel;
		char *trials_target[] = { trials_on };
		where_trials_run.patterns = trials_target;
		where_trials_run.npatterns = 1;
		int prepared = adhoc_prepare(&where_trials_run, rp, &t.sig, &t.binding);
		if (prepared != 0) {
			status = prepared;
		} else {
			/* At the launch as given; the sweep's shapes size them alike. */
			adhoc_say_choices(rq->kernel, &t.sig, &t.binding, rp, "hunt");
			status = join_status(status, hunt_one(&t, rq, share, jobs, rp), i == 0);
		}
		free(t.spec_line);
		adhoc_binding_free(&t.binding);
		kernel_sig_free(&t.sig);
	}
	if (!simulated)
		dispatch_release(&backend_racecheck);
	dispatch_release(&backend_oclgrind);
	free(trials_on);
	return status;
}
