/* mutate.c - a subject's mutants, and a case's judged by its targets and golden
 * (mutate.h). */
#include "config.h"

#include "mutate/mutate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/pool.h"
#include "base/util.h"
#include "case/testcase.h"
#include "exec/caserun.h"
#include "exec/dispatch.h"
#include "exec/select.h"
#include "results/golden.h"

const char *mutant_fate_name(enum mutant_fate f)
{
	switch (f) {
	case FATE_KILLED:
		return "killed";
	case FATE_SURVIVED:
		return "survived";
	case FATE_STILLBORN:
		return "stillborn";
	case FATE_TIMED_OUT:
		return "timed-out";
	default:
		return "unjudged";
	}
}

/* Adds the mutants of one kernel file to the set. */
static int add_file(struct mutant_set *s, const char *path, const char *options, unsigned ops,
		    char *const *kernels, size_t nkernels, struct diag_list *diags)
{
	size_t len = 0;
	char *source = read_file(path, &len);
	if (source == NULL) {
		diag_add(diags, DIAG_ERROR, path, 0, 0, "cannot read the kernel file: %s",
			 strerror(errno));
		return -1;
	}
	struct mutation_list found;
	if (mutsites_find(path, options, ops, kernels, nkernels, &found, diags) < 0) {
		free(source);
		return -1;
	}
	size_t f = s->nfiles++;
	s->files = xreallocarray(s->files, s->nfiles, sizeof *s->files);
	s->sources = xreallocarray(s->sources, s->nfiles, sizeof *s->sources);
	s->lengths = xreallocarray(s->lengths, s->nfiles, sizeof *s->lengths);
	s->files[f] = xstrdup(path);
	s->sources[f] = source;
	s->lengths[f] = len;
	s->items = xreallocarray(s->items, s->count + found.count + 1, sizeof *s->items);
	for (size_t i = 0; i < found.count; i++) {
		struct mutant *m = &s->items[s->count];
		*m = (struct mutant){ .m = found.items[i], .file = s->files[f], .kept = -1 };
		m->text = mutation_apply(source, len, &m->m);
		m->same_as = s->count;
		for (size_t k = 0; k < s->count; k++)
			if (s->items[k].file == m->file && strcmp(s->items[k].text, m->text) == 0) {
				m->same_as = k;
				break;
			}
		s->count++;
	}
	free(found.items); /* their strings now belong to the mutants */
	return 0;
}

int mutant_set_of_file(const char *subject, const char *path, const char *options, unsigned ops,
		       char *const *kernels, size_t nkernels, struct mutant_set *out,
		       struct diag_list *diags)
{
	*out = (struct mutant_set){ .subject = xstrdup(subject) };
	if (add_file(out, path, options, ops, kernels, nkernels, diags) < 0) {
		mutant_set_free(out);
		return -1;
	}
	return 0;
}

/* Why a case's kernel is a known bug, or NULL: a racy case, or a golden that expects
 * anything but pass of it (a verdict on a device or the simulator, an error finding).
 * Mutants of a wrong kernel fail the same way the original does, which measures nothing.
 * Caller frees. */
static char *known_bug(const struct test_case *tc, const char *case_path)
{
	if (tc->racy)
		return xstrdup("the case is marked racy");
	char *path = golden_path_for(case_path);
	struct diag_list quiet = { 0 };
	struct golden *g = path && access(path, F_OK) == 0 ? golden_load(path, &quiet) : NULL;
	char *why = NULL;
	if (g && g->devices && g->devices != 1u << VERDICT_PASS)
		why = xasprintf("its golden expects devices to give %s", g->devices_text);
	for (size_t i = 0; g && why == NULL && i < g->nruns; i++) {
		const struct golden_run *run = &g->runs[i];
		if (strcmp(run->output, verdict_name(VERDICT_PASS)) != 0)
			why = xasprintf("its golden expects %s of %s", run->output, run->label);
		for (size_t f = 0; why == NULL && f < run->nfindings; f++)
			if (strncmp(run->findings[f], "error ", 6) == 0)
				why = xasprintf("its golden expects `%s` of %s", run->findings[f],
						run->label);
	}
	if (g)
		golden_free(g);
	diag_list_free(&quiet);
	free(path);
	return why;
}

int mutant_set_of_case(const char *case_path, unsigned ops, struct mutant_set *out,
		       struct diag_list *diags)
{
	*out = (struct mutant_set){ .subject = xstrdup(case_path) };
	struct test_case *tc = case_load(case_path, diags);
	if (tc == NULL) {
		mutant_set_free(out);
		return -1;
	}
	int status = 0;
	char *bug = known_bug(tc, case_path);
	if (bug) {
		diag_add(diags, DIAG_NOTE, case_path, 0, 0,
			 "not mutated: %s, so the kernel is a known bug, whose mutants say "
			 "nothing of the checks",
			 bug);
		free(bug);
		status = 1;
	}
	for (size_t i = 0; i < tc->nsteps && status == 0; i++) {
		bool seen = false;
		for (size_t f = 0; f < out->nfiles; f++)
			seen |= strcmp(out->files[f], tc->steps[i].kernel_path) == 0;
		if (seen)
			continue;
		/* The kernels of this file that the case's steps run. */
		char **names = xcalloc(tc->nsteps + 1, sizeof *names);
		size_t n = 0;
		for (size_t k = 0; k < tc->nsteps; k++)
			if (strcmp(tc->steps[k].kernel_path, tc->steps[i].kernel_path) == 0)
				names[n++] = tc->steps[k].kernel_name;
		status = add_file(out, tc->steps[i].kernel_path, tc->options, ops, names, n, diags);
		free(names);
	}
	case_free(tc);
	if (status != 0)
		mutant_set_free(out);
	return status;
}

void mutant_set_free(struct mutant_set *s)
{
	for (size_t i = 0; i < s->count; i++) {
		free(s->items[i].m.replacement);
		free(s->items[i].m.what);
		free(s->items[i].text);
		free(s->items[i].by);
		free(s->items[i].caught_by);
	}
	free(s->items);
	for (size_t f = 0; f < s->nfiles; f++) {
		free(s->files[f]);
		free(s->sources[f]);
	}
	free(s->files);
	free(s->sources);
	free(s->lengths);
	for (size_t c = 0; c < s->nchecks; c++)
		free(s->checks[c]);
	free(s->checks);
	free(s->subject);
	*s = (struct mutant_set){ 0 };
}

/* --- a case's mutants judged --- */

/* What one run of the case (the original, or a mutant in its place) came to. */
struct verdicts {
	size_t results, unexpected, build_errors, timeouts;
	char *caught;	  /* the first unexpected result that is neither of those */
	char *first_odd;  /* the first build error or time-out */
	struct strbuf *out; /* where the job's line goes */
	/* The mutant's file and its folder, removed before a job that ends early exits. */
	const char *mutant_path, *mutant_dir;
};

static void remove_mutant(const struct verdicts *v)
{
	if (v->mutant_path)
		unlink(v->mutant_path);
	if (v->mutant_dir)
		rmdir(v->mutant_dir);
}

static void put_fate(struct strbuf *out, enum mutant_fate fate, const char *by)
{
	strbuf_printf(out, "%d\t%s\n", (int)fate, by ? by : "");
}

static char *result_text(const struct result *r)
{
	char n[64] = "", l[64] = "";
	if (r->n.dims)
		shape_format(&r->n, n);
	if (r->l.dims)
		shape_format(&r->l, l);
	const char *check = r->output == VERDICT_WRONG_OUTPUT && r->buffer ? "the check of "
				: r->simulated				   ? "the golden's findings"
									   : "the golden";
	struct strbuf t = { 0 };
	strbuf_printf(&t, "%s%s on %s%s%s%s%s: %s", check,
		      r->output == VERDICT_WRONG_OUTPUT && r->buffer ? r->buffer : "", r->target,
		      *n ? " N=" : "", n, *l ? " L=" : "", l, verdict_name(r->verdict));
	if (r->verdict == VERDICT_WRONG_OUTPUT && r->buffer)
		strbuf_printf(&t, ", %s[%zu]: got %.10g, want %.10g", r->buffer, r->index, r->got,
			      r->want);
	else if (r->message && r->line && r->file)
		strbuf_printf(&t, ", %s:%d: %s",
			      strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file, r->line,
			      r->message);
	else if (r->message)
		strbuf_printf(&t, ", %s", r->message);
	else if (r->expect_diff)
		strbuf_printf(&t, " (%.*s)", (int)strcspn(r->expect_diff, "\n"), r->expect_diff);
	char *text = strbuf_take(&t);
	return text ? text : xstrdup("?");
}

static void take(void *ctx, struct result *r)
{
	struct verdicts *v = ctx;
	v->results++;
	if (result_expected(r))
		return;
	v->unexpected++;
	if (r->verdict == VERDICT_BUILD_ERROR || r->verdict == VERDICT_TIMEOUT) {
		v->build_errors += r->verdict == VERDICT_BUILD_ERROR;
		v->timeouts += r->verdict == VERDICT_TIMEOUT;
		if (v->first_odd == NULL)
			v->first_odd = result_text(r);
	} else if (v->caught == NULL) {
		v->caught = result_text(r);
		/* Caught: the rest of the case's runs would say nothing more of this mutant. */
		if (v->build_errors == 0 && v->out) {
			put_fate(v->out, FATE_KILLED, v->caught);
			remove_mutant(v);
			pool_job_end(v->out);
		}
	}
}

static void broken_golden(void *ctx, const char *path, const struct diag_list *diags)
{
	struct verdicts *v = ctx;
	v->unexpected++;
	if (v->caught == NULL)
		v->caught = xasprintf("%s does not parse: %s", path,
				      diags->count ? diags->items[0].message : "?");
}

struct case_jobs {
	struct mutant_set *s;
	const char *case_path;
	const struct case_judging *j;
	size_t *todo; /* the mutants to run, one of each text; SIZE_MAX: the original */
	struct diag_list *diags;
	bool original_failed;
	/* The folder the mutants' files go in, a folder a job: made and removed by the
	 * parent, since a judging process stopped by Ctrl-C leaves its own behind. */
	const char *scratch;
};

/* Runs the case with `file` replaced by `text` (NULL: as it is) into v; job `index`
 * writes the mutant in a folder of its own. */
static void run_case(const struct case_jobs *cj, size_t index, const char *file,
		     const char *text, struct verdicts *v)
{
	struct diag_list diags = { 0 };
	struct test_case *tc = case_load(cj->case_path, &diags);
	char *dir = NULL, *path = NULL;
	if (tc && text) {
		dir = xasprintf("%s/%zu", cj->scratch, index);
		if (mkdir(dir, 0700) != 0) {
			free(dir);
			dir = NULL;
		}
		const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		path = dir ? xasprintf("%s/%s", dir, base) : NULL;
		FILE *f = path ? fopen(path, "w") : NULL;
		if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
			v->unexpected++;
			v->caught = xasprintf("cannot write the mutant to %s", path ? path : "/tmp");
			case_free(tc);
			tc = NULL;
		}
		/* The kernel's own #includes, beside it, still found from the copy. */
		char *folder = xstrndup(file, (size_t)(base - file));
		char *options = xasprintf("%s%s-I %s", tc && tc->options ? tc->options : "",
					  tc && tc->options ? " " : "", *folder ? folder : ".");
		for (size_t i = 0; tc && i < tc->nsteps; i++)
			if (strcmp(tc->steps[i].kernel_path, file) == 0) {
				free(tc->steps[i].kernel_path);
				tc->steps[i].kernel_path = xstrdup(path);
			}
		if (tc) {
			free(tc->options);
			tc->options = options;
		} else {
			free(options);
		}
		free(folder);
	}
	if (tc == NULL && v->caught == NULL) {
		v->unexpected++;
		v->caught = xasprintf("the case does not load: %s",
				      diags.count ? diags.items[0].message : "?");
	}
	v->mutant_path = path;
	v->mutant_dir = dir;
	if (tc) {
		struct golden_book book = { 0 };
		struct test_case *cases[] = { tc };
		golden_book_open(&book, cases, 1, false, true, broken_golden, v);
		struct run_options opt = { .repeat = 1 };
		struct selection sel;
		selection_open(&sel, cj->j->patterns, cj->j->npatterns, cases, 1, &opt,
			       cj->j->timeout_s);
		struct case_run cr;
		case_run_open(&cr, cases, 1, &book, NULL, take, v);
		case_run_references(&cr, &opt, cj->j->timeout_s);
		for (size_t t = 0; t < sel.count; t++)
			case_run_target(&cr, &sel, t);
		case_run_finish(&cr);
		case_run_close(&cr);
		selection_free(&sel);
		golden_book_close(&book);
		case_free(tc);
	}
	remove_mutant(v);
	v->mutant_path = v->mutant_dir = NULL;
	free(path);
	free(dir);
	diag_list_free(&diags);
}

/* In the child: one run, its fate and what caught it as a line. */
static void case_job(void *ctx, size_t index, struct strbuf *out)
{
	const struct case_jobs *cj = ctx;
	size_t k = cj->todo[index];
	const struct mutant *m = k == SIZE_MAX ? NULL : &cj->s->items[k];
	struct verdicts v = { .out = out };
	run_case(cj, index, m ? m->file : NULL, m ? m->text : NULL, &v);
	enum mutant_fate fate = v.build_errors > 0			    ? FATE_STILLBORN
				: v.caught				    ? FATE_KILLED
				: v.timeouts > 0			    ? FATE_TIMED_OUT
				: v.results == 0 || v.unexpected > 0 ? FATE_KILLED
									    : FATE_SURVIVED;
	const char *by = fate == FATE_KILLED && v.caught ? v.caught
			 : fate == FATE_STILLBORN || fate == FATE_TIMED_OUT ? v.first_odd
			 : v.results == 0 ? "no target ran it"
					  : "";
	put_fate(out, fate, by);
	free(v.caught);
	free(v.first_odd);
}

static void case_done(void *ctx, size_t index, const char *text, int status)
{
	struct case_jobs *cj = ctx;
	size_t k = cj->todo[index];
	int fate = FATE_KILLED;
	const char *tab = strchr(text, '\t');
	char *by = NULL;
	if (tab && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		fate = atoi(text);
		by = xstrndup(tab + 1, strcspn(tab + 1, "\n"));
	} else {
		/* The judging child died, not a worker of its: the harness's fault. */
		by = xasprintf("the judging process ended %s %d, a fault of clharness",
			       WIFSIGNALED(status) ? "by signal" : "with status",
			       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		fate = FATE_UNJUDGED;
	}
	if (k == SIZE_MAX) {
		if (fate != FATE_SURVIVED) {
			diag_add(cj->diags, DIAG_ERROR, cj->case_path, 0, 0,
				 "the case fails its own golden (%s): fix it, or bless its golden, "
				 "before measuring what its checks catch",
				 by && *by ? by : mutant_fate_name((enum mutant_fate)fate));
			cj->original_failed = true;
		}
		free(by);
		return;
	}
	struct mutant *m = &cj->s->items[k];
	m->fate = fate >= FATE_UNJUDGED && fate <= FATE_TIMED_OUT ? (enum mutant_fate)fate
								  : FATE_KILLED;
	m->by = by;
	if (cj->j->judged)
		cj->j->judged(cj->j->ctx, cj->s, k);
}

/* A mutant whose text another has is that one's fate. */
static void judge_same_texts(struct mutant_set *s, const struct case_judging *j)
{
	for (size_t i = 0; i < s->count; i++) {
		struct mutant *m = &s->items[i];
		if (m->same_as != i && s->items[m->same_as].fate != FATE_UNJUDGED) {
			m->fate = s->items[m->same_as].fate;
			free(m->by);
			m->by = xasprintf("as mutant %zu, of the same text: %s", m->same_as + 1,
					  s->items[m->same_as].by ? s->items[m->same_as].by : "");
			if (j->judged)
				j->judged(j->ctx, s, i);
		}
	}
}

/* Runs the original, then every mutant of its own text, in jobs of the pool. */
static int judge_all(struct case_jobs *cj, struct mutant_set *s, const struct case_judging *j)
{
	size_t original = SIZE_MAX;
	cj->todo = &original;
	struct pool p = { case_job, case_done, cj, 1 };
	if (pool_run(&p, 1) == 0 || cj->original_failed)
		return -1;
	size_t *todo = xcalloc(s->count + 1, sizeof *todo), n = 0;
	for (size_t i = 0; i < s->count; i++)
		if (s->items[i].same_as == i)
			todo[n++] = i;
	cj->todo = todo;
	p.jobs = j->jobs;
	pool_run(&p, n);
	free(todo);
	judge_same_texts(s, j);
	return 0;
}

/* Removes the scratch folder with what jobs left in it: a folder a job, its files. */
static void remove_scratch(const char *scratch)
{
	char **jobs;
	long njobs = dir_entries(scratch, true, &jobs);
	for (long i = 0; i < njobs; i++) {
		char **files;
		long nfiles = dir_entries(jobs[i], true, &files);
		for (long k = 0; k < nfiles; k++)
			unlink(files[k]);
		strings_free(files, nfiles);
		rmdir(jobs[i]);
	}
	strings_free(jobs, njobs);
	rmdir(scratch);
}

int mutate_case(struct mutant_set *s, const char *case_path, const struct case_judging *j,
		struct diag_list *diags)
{
	char *scratch = temp_path("mutant");
	if (mkdtemp(scratch) == NULL) {
		diag_add(diags, DIAG_ERROR, case_path, 0, 0,
			 "cannot make a folder for the mutants (%s): %s; set TMPDIR to a folder "
			 "you can write",
			 scratch, strerror(errno));
		free(scratch);
		return -1;
	}
	/* A judging process ends as soon as its mutant is caught, closing no dispatcher:
	 * what the backends share (Oclgrind's vendors folder) is made here instead, and
	 * removed here at the end. */
	for (size_t b = 0; b < backend_count; b++)
		dispatch_hold(backends[b]);
	struct case_jobs cj = { .s = s,
				.case_path = case_path,
				.j = j,
				.diags = diags,
				.scratch = scratch };
	int status = judge_all(&cj, s, j);
	for (size_t b = 0; b < backend_count; b++)
		dispatch_release(backends[b]);
	remove_scratch(scratch);
	free(scratch);
	return status;
}

bool mutant_weak(const struct mutant *m)
{
	return m->fate == FATE_SURVIVED && m->kept >= 0 && m->kept < 1;
}

struct mutation_score mutation_score_of(const struct mutant_set *s)
{
	struct mutation_score sc = { .total = s->count };
	for (size_t i = 0; i < s->count; i++)
		switch (s->items[i].fate) {
		case FATE_KILLED:
			sc.killed++;
			break;
		case FATE_SURVIVED:
			sc.survived++;
			sc.weak += mutant_weak(&s->items[i]);
			break;
		case FATE_STILLBORN:
			sc.stillborn++;
			break;
		case FATE_TIMED_OUT:
			sc.timed_out++;
			break;
		default:
			sc.unjudged++;
		}
	return sc;
}

double mutation_score_value(const struct mutation_score *sc)
{
	size_t counted = sc->total - sc->stillborn - sc->unjudged;
	return counted ? (double)sc->killed / (double)counted : 1.0;
}

char *mutant_file_name(const struct mutant_set *s, size_t index)
{
	const struct mutant *m = &s->items[index];
	const char *base = strrchr(m->file, '/') ? strrchr(m->file, '/') + 1 : m->file;
	size_t stem = strcspn(base, ".");
	return xasprintf("%.*s-m%02zu-%s-l%d.cl", (int)stem, base, index + 1,
			 mut_operator_name(m->m.op), m->m.line);
}

size_t mutants_save(const struct mutant_set *s, const char *dir)
{
	size_t failed = 0;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return s->count;
	for (size_t i = 0; i < s->count; i++) {
		const struct mutant *m = &s->items[i];
		char *name = mutant_file_name(s, i);
		char *path = xasprintf("%s/%s", dir, name);
		FILE *f = fopen(path, "w");
		/* On the first line, so that every line keeps its number. */
		bool ok = f && fprintf(f, "/* mutant %zu of %s: %s (%s, line %d) */ ", i + 1,
				       m->file, m->m.what, mut_operator_name(m->m.op),
				       m->m.line) > 0 &&
			  fputs(m->text, f) >= 0;
		if (f && fclose(f) != 0)
			ok = false;
		failed += !ok;
		free(path);
		free(name);
	}
	return failed;
}
