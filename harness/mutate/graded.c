/* graded.c - an assignment's reference solution mutated and graded as a class
 * (graded.h). */
#include "config.h"

#include "mutate/graded.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/util.h"
#include "grade/batch.h"
#include "grade/gradereport.h"
#include "grade/session.h"
#include "source/kernelsrc.h"

/* The reference solution: the kernel file of the case the assignment's checks run, with
 * the name its kernel has there and the one a submission gives it. */
struct solution {
	char *path, *options;
	char *kernel; /* as the case names its first step's kernel */
	char *as;     /* as the assignment declares it */
	char **kernels; /* every kernel of the file the case's steps run */
	size_t nkernels;
};

static bool solution_of(const struct assignment *a, struct solution *sol, struct diag_list *diags)
{
	*sol = (struct solution){ 0 };
	for (size_t c = 0; c < a->nchecks && sol->path == NULL; c++) {
		struct test_case *tc = case_load(a->checks[c].case_path, diags);
		if (tc == NULL)
			return false;
		const struct kernel_proto *k =
			tc->nsteps ? assignment_kernel_of_step(a, tc, 0) : NULL;
		if (k) {
			sol->path = xstrdup(tc->steps[0].kernel_path);
			sol->options = tc->options ? xstrdup(tc->options) : NULL;
			sol->kernel = xstrdup(tc->steps[0].kernel_name);
			sol->as = xstrdup(k->name);
			sol->kernels = xcalloc(tc->nsteps + 1, sizeof *sol->kernels);
			for (size_t i = 0; i < tc->nsteps; i++)
				if (strcmp(tc->steps[i].kernel_path, sol->path) == 0)
					sol->kernels[sol->nkernels++] =
						xstrdup(tc->steps[i].kernel_name);
		}
		case_free(tc);
	}
	if (sol->path == NULL)
		diag_add(diags, DIAG_ERROR, a->path, 0, 0,
			 "no check names a case whose kernel is one the assignment declares");
	return sol->path != NULL;
}

static void solution_free(struct solution *sol)
{
	free(sol->path);
	free(sol->options);
	free(sol->kernel);
	free(sol->as);
	for (size_t i = 0; i < sol->nkernels; i++)
		free(sol->kernels[i]);
	free(sol->kernels);
}

/* Where the kernel's name starts in the solution's text, to be renamed as a submission
 * names it; SIZE_MAX where it needs no renaming or cannot be found. */
static size_t name_offset(const struct solution *sol, const char *text)
{
	if (strcmp(sol->kernel, sol->as) == 0)
		return SIZE_MAX;
	struct kernel_source ks;
	struct diag_list diags = { 0 };
	size_t at = SIZE_MAX;
	if (kernelsrc_read(sol->path, sol->kernel, sol->options, &ks, &diags) == 0) {
		const char *p = text;
		for (int line = 1; line < ks.line && p; line++)
			p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
		if (p && strncmp(p + ks.col - 1, sol->kernel, strlen(sol->kernel)) == 0)
			at = (size_t)(p + ks.col - 1 - text);
		kernel_source_free(&ks);
	}
	diag_list_free(&diags);
	return at;
}

/* `text` (the solution, or a mutant of it: mutation m, NULL for none) with its kernel
 * named as the assignment declares it. */
static char *as_submission(const struct solution *sol, size_t at, const char *text,
			   const struct mutation *m)
{
	if (at == SIZE_MAX)
		return xstrdup(text);
	if (m && m->end <= at)
		at = at + strlen(m->replacement) - (m->end - m->start);
	return xasprintf("%.*s%s%s", (int)at, text, sol->as, text + at + strlen(sol->kernel));
}

/* Writes the original and each mutant of its own text as students of a class folder,
 * each kernel named as the assignment declares it. */
static int write_class(const struct mutant_set *s, const struct solution *sol, const char *dir,
		       struct submission *subs, size_t *n)
{
	*n = 0;
	size_t at = name_offset(sol, s->sources[0]);
	for (size_t i = 0; i <= s->count; i++) {
		if (i > 0 && s->items[i - 1].same_as != i - 1)
			continue;
		char *student = i == 0 ? xstrdup("original") : xasprintf("mutant%03zu", i);
		char *path = xasprintf("%s/%s.cl", dir, student);
		FILE *f = fopen(path, "w");
		char *text = i == 0 ? as_submission(sol, at, s->sources[0], NULL)
				    : as_submission(sol, at, s->items[i - 1].text,
						    &s->items[i - 1].m);
		bool ok = f && fputs(text, f) >= 0;
		free(text);
		if (f && fclose(f) != 0)
			ok = false;
		if (!ok) {
			fprintf(stderr, "clharness: cannot write %s: %s\n", path, strerror(errno));
			free(student);
			free(path);
			return -1;
		}
		subs[(*n)++] = (struct submission){ .student = student, .path = path };
	}
	return 0;
}

/* A mutant's fate from its grade beside the original's: caught by every check where it
 * earned less; killed only where it kept less than `kill_below` of the original's points,
 * else a survivor that lost some (a weak catch, its points said). Speed checks are not
 * asked, since a timing's noise would read as a catch. */
static void judge_grade(const struct assignment *a, const struct student_grade *original,
			const struct student_grade *g, double kill_below, struct mutant *m)
{
	m->caught_by = xcalloc(a->nchecks + 1, sizeof *m->caught_by);
	if (g->student == NULL) {
		m->fate = FATE_UNJUDGED;
		return;
	}
	if (g->blocker) {
		m->fate = g->blocker_verdict == VERDICT_BUILD_ERROR ? FATE_STILLBORN
			  : g->blocker_verdict == VERDICT_TIMEOUT   ? FATE_TIMED_OUT
								    : FATE_KILLED;
		m->by = xstrdup(g->blocker);
		m->kept = 0;
		for (size_t c = 0; c < a->nchecks && m->fate == FATE_KILLED; c++)
			m->caught_by[c] = a->checks[c].kind != GRADE_SPEED;
		return;
	}
	struct strbuf by = { 0 };
	bool caught = false, only_timeouts = true;
	double earned = 0, most = 0;
	for (size_t c = 0; c < a->nchecks; c++) {
		if (a->checks[c].kind == GRADE_SPEED)
			continue;
		earned += g->checks[c].points;
		most += original->checks[c].points;
		if (grade_round(g->checks[c].points) < grade_round(original->checks[c].points)) {
			m->caught_by[c] = true;
			caught = true;
			only_timeouts &= g->checks[c].verdicts == (1u << VERDICT_TIMEOUT);
			const char *why = g->checks[c].summary;
			strbuf_printf(&by, "%s%s %.4g of %.4g", by.len ? "; " : "", a->checks[c].name,
				      g->checks[c].points, original->checks[c].points);
			if (why && *why)
				strbuf_printf(&by, " (%s)", why);
		}
	}
	m->kept = most > 0 ? earned / most : 1;
	bool enough = m->kept < kill_below;
	m->fate = !caught		 ? FATE_SURVIVED
		  : only_timeouts	 ? FATE_TIMED_OUT
		  : enough		 ? FATE_KILLED
					 : FATE_SURVIVED;
	if (caught && !enough && !only_timeouts) {
		char *lost = strbuf_take(&by);
		strbuf_printf(&by, "a weak catch: it keeps %.1f%% of the points, at least the "
				   "%.0f%% --kill-below asks it to lose: %s",
			      100 * m->kept, 100 * kill_below, lost);
		free(lost);
	}
	m->by = strbuf_take(&by);
}


int graded_mutants_find(const struct assignment *a, unsigned ops, struct mutant_set *s,
			char **solution, struct diag_list *diags)
{
	*solution = NULL;
	struct solution sol;
	if (!solution_of(a, &sol, diags))
		return -1;
	int found = mutant_set_of_file(a->path, sol.path, sol.options, ops, sol.kernels,
				       sol.nkernels, s, diags);
	if (found == 0) {
		s->nchecks = a->nchecks;
		s->checks = xcalloc(a->nchecks + 1, sizeof *s->checks);
		for (size_t c = 0; c < a->nchecks; c++)
			s->checks[c] = xstrdup(a->checks[c].name);
		*solution = xstrdup(sol.path);
	}
	solution_free(&sol);
	return found < 0 ? -1 : 0;
}

/* Removes the temporary class: each student's file and reports, then the folders. */
static void remove_class(const char *dir, struct submission *subs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (subs[i].path)
			unlink(subs[i].path);
		char *reports[] = {
			xasprintf("%s/%s.json", dir, subs[i].student),
			xasprintf("%s/%s.txt", dir, subs[i].student),
			xasprintf("%s/" GRADE_INSTRUCTOR_DIR "/%s.txt", dir, subs[i].student),
		};
		for (size_t r = 0; r < sizeof reports / sizeof *reports; r++) {
			unlink(reports[r]);
			free(reports[r]);
		}
	}
	char *instructor = xasprintf("%s/" GRADE_INSTRUCTOR_DIR, dir);
	rmdir(instructor);
	free(instructor);
	rmdir(dir);
}

int graded_mutants_judge(const struct assignment *a, struct mutant_set *s,
			 const struct graded_judging *j, char **warning, char **cause)
{
	*warning = *cause = NULL;
	struct solution sol;
	struct diag_list diags = { 0 };
	if (!solution_of(a, &sol, &diags)) {
		*cause = xstrdup(diags.count ? diags.items[0].message : "no reference solution");
		diag_list_free(&diags);
		return -1;
	}
	struct session_options so = { .device_pattern = j->device_pattern,
				      .wall_s = j->timeout_s };
	struct grading_session session;
	int status = grading_session_open(&session, a, &so, cause);
	char *dir_template = temp_path("mutants");
	char *dir = status == 0 && mkdtemp(dir_template) ? xstrdup(dir_template) : NULL;
	struct submission *subs = xcalloc(s->count + 2, sizeof *subs);
	struct student_grade *grades = NULL;
	size_t n = 0;
	if (status == 0 && dir == NULL) {
		*cause = xasprintf("cannot make a temporary folder: %s", strerror(errno));
		status = -1;
	}
	if (status == 0 && write_class(s, &sol, dir, subs, &n) < 0) {
		*cause = xasprintf("cannot write the mutants to %s: %s", dir, strerror(errno));
		status = -1;
	}
	if (status < 0)
		goto out;
	if (session.warning)
		*warning = xstrdup(session.warning);
	struct batch_options bo = { .assignment = a, .grade = &session.opt, .out_dir = dir,
				    .jobs = j->jobs };
	grades = xcalloc(n + 1, sizeof *grades);
	batch_grade(&bo, subs, n, grades);
	const struct student_grade *original = &grades[0];
	const char *failed = NULL;
	for (size_t c = 0; original->student && !original->blocker && c < a->nchecks; c++)
		if (a->checks[c].kind != GRADE_SPEED && failed == NULL &&
		    !check_grade_passed(&a->checks[c], &original->checks[c]))
			failed = a->checks[c].name;
	if (original->student == NULL || original->blocker || failed) {
		*cause = xasprintf("its reference solution %s %s%s: its checks must pass it "
				   "before its mutants say anything",
				   sol.path, original->blocker ? "is blocked: " : "fails the check ",
				   original->blocker ? original->blocker
				   : failed	     ? failed
						     : "(not graded)");
		status = -1;
		goto out;
	}
	for (size_t k = 1, i = 0; i < s->count; i++) {
		struct mutant *m = &s->items[i];
		if (m->same_as != i)
			continue;
		judge_grade(a, original, &grades[k++], j->kill_below, m);
	}
	for (size_t i = 0; i < s->count; i++) {
		struct mutant *m = &s->items[i], *first = &s->items[m->same_as];
		if (m->same_as == i)
			continue;
		m->fate = first->fate;
		m->kept = first->kept;
		m->by = xasprintf("as mutant %zu, of the same text", m->same_as + 1);
		m->caught_by = xcalloc(a->nchecks + 1, sizeof *m->caught_by);
		if (first->caught_by)
			memcpy(m->caught_by, first->caught_by, a->nchecks * sizeof *m->caught_by);
	}
out:
	if (dir)
		remove_class(dir, subs, n);
	for (size_t i = 0; i < n; i++) {
		free(subs[i].student);
		free(subs[i].path);
		if (grades)
			student_grade_free(&grades[i]);
	}
	free(subs);
	free(grades);
	free(dir);
	free(dir_template);
	grading_session_close(&session);
	solution_free(&sol);
	diag_list_free(&diags);
	return status;
}
