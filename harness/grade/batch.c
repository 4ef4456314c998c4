/* batch.c - grades many submissions side by side in child processes. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/child.h"
#include "base/interrupt.h"
#include "base/util.h"
#include "grade/batch.h"
#include "grade/gradeload.h"
#include "grade/gradereport.h"

/* Writes a student's reports: the student's text (NAME.txt), and the instructor's text
 * (instructor/NAME.txt) and JSON record (NAME.json), which hold the hidden checks in full. */
static int write_reports(const struct batch_options *bo, const struct student_grade *g)
{
	struct strbuf text = { 0 }, full = { 0 }, json = { 0 };
	grade_report_text(&text, bo->assignment, g, GRADE_FOR_STUDENT, false);
	grade_report_text(&full, bo->assignment, g, GRADE_FOR_INSTRUCTOR, false);
	grade_report_json(&json, bo->assignment, g);
	char *text_name = xasprintf("%s.txt", g->student);
	char *json_name = xasprintf("%s.json", g->student);
	char *instructor = xasprintf("%s/" GRADE_INSTRUCTOR_DIR, bo->out_dir);
	int status = write_text_file(bo->out_dir, text_name, text.data) < 0 ||
				     (mkdir(instructor, 0777) < 0 && errno != EEXIST) ||
				     write_text_file(instructor, text_name, full.data) < 0 ||
				     write_text_file(bo->out_dir, json_name, json.data) < 0
			     ? -1
			     : 0;
	free(text_name);
	free(json_name);
	free(instructor);
	strbuf_free(&text);
	strbuf_free(&full);
	strbuf_free(&json);
	return status;
}

/* What a grader tells the parent: one line a number, so the parent needs no parser
 * beyond strtod. "reports-failed" ends it when the reports could not be written. */
static void send_summary(int fd, const struct student_grade *g, bool reports_written)
{
	struct strbuf out = { 0 };
	strbuf_printf(&out, "%d\n%s\n%s\n", g->blocker ? (int)g->blocker_verdict : -1,
		      reports_written ? "ok" : "reports-failed", g->note ? g->note : "-");
	for (size_t i = 0; i < g->nchecks; i++)
		strbuf_printf(&out, "%.17g %zu %zu %u\n", g->checks[i].points, g->checks[i].runs,
			      g->checks[i].passed, g->checks[i].verdicts);
	strbuf_printf(&out, "%.17g\n", g->total);
	write_all(fd, out.data, out.len); /* a parent gone has no use for it */
	strbuf_free(&out);
}

/* Reads a summary back into a grade of points alone. Returns -1 when it is cut short. */
static int read_summary(const char *text, const struct assignment *a, struct student_grade *g,
			bool *reports_written)
{
	char *end;
	long blocker = strtol(text, &end, 10);
	if (end == text || *end != '\n')
		return -1;
	const char *p = end + 1;
	*reports_written = strncmp(p, "ok\n", 3) == 0;
	p = strchr(p, '\n');
	if (p == NULL)
		return -1;
	p++;
	/* The note, a word of the grader's own ("-": none). */
	end = strchr(p, '\n');
	if (end == NULL)
		return -1;
	if (end - p != 1 || *p != '-')
		g->note = xstrndup(p, (size_t)(end - p));
	p = end + 1;
	if (blocker > VERDICT_SKIP)
		return -1;
	if (blocker >= 0) {
		g->blocker_verdict = (enum verdict)blocker;
		g->blocker = xstrdup("not gradable: see the student's report");
	}
	for (size_t i = 0; i < a->nchecks; i++) {
		struct check_grade *cg = &g->checks[i];
		cg->points = strtod(p, &end);
		if (end == p)
			return -1;
		cg->runs = strtoul(end, &end, 10);
		cg->passed = strtoul(end, &end, 10);
		cg->verdicts = (unsigned)strtoul(end, &end, 10);
		if (*end != '\n')
			return -1;
		p = end + 1;
	}
	g->total = strtod(p, &end);
	return end == p || *end != '\n' ? -1 : 0;
}

struct grader_child {
	pid_t pid;
	int fd;
	size_t index;
	struct strbuf got;
	uint64_t start_ns;
};

/* What a grader child grades. */
struct grader_job {
	const struct batch_options *bo;
	const struct submission *sub;
};

/* In the child: grades one submission, writes its reports, sends the summary. */
static void grade_child(const struct batch_options *bo, const struct submission *sub, int fd)
{
	struct student_grade g;
	grade_submission(bo->assignment, bo->grade, sub, &g);
	bool written = write_reports(bo, &g) == 0;
	send_summary(fd, &g, written);
	student_grade_free(&g);
}

static void grade_job(void *ctx, int fd)
{
	const struct grader_job *job = ctx;
	grade_child(job->bo, job->sub, fd);
}

/* In the parent: a child has ended; turns what it sent into grades[index]. */
static size_t finish_child(const struct batch_options *bo, struct grader_child *c,
			   const struct submission *subs, struct student_grade *grades, int status)
{
	const struct submission *sub = &subs[c->index];
	struct student_grade *g = &grades[c->index];
	size_t failed_reports = 0;
	bool written = false;
	struct student_grade got;
	student_grade_init(bo->assignment, sub->student, sub->path, &got);
	if (c->got.data && read_summary(c->got.data, bo->assignment, &got, &written) == 0) {
		*g = got;
	} else if (interrupt_signal()) {
		/* Ended by the parent's stop: not graded, and no report says otherwise. */
		student_grade_free(&got);
		strbuf_free(&c->got);
		close(c->fd);
		return 0;
	} else {
		student_grade_free(&got);
		/* The grader itself died: the student still gets a score and a report. */
		char *why =
			WIFSIGNALED(status)
				? xasprintf("the grader died of signal %d (%s), a fault of "
					    "clharness: please report it",
					    WTERMSIG(status), strsignal(WTERMSIG(status)))
				: xasprintf("the grader exited with status %d before reporting, "
					    "a fault of clharness: please report it",
					    WEXITSTATUS(status));
		grade_blocked(bo->assignment, sub->student, sub->path, VERDICT_CRASH, why, g);
		free(why);
		written = write_reports(bo, g) == 0;
	}
	if (!written)
		failed_reports++;
	if (bo->progress)
		bo->progress(bo->ctx, g, (clock_now_ns() - c->start_ns) / 1e9, false);
	strbuf_free(&c->got);
	close(c->fd);
	return failed_reports;
}

/* --resume: the grade of subs's student from the report an earlier grading finished, of
 * the same kernel file as now. Reports are written whole or not at all
 * (write_text_file), the JSON one last. */
static bool resumed(const struct batch_options *bo, const struct submission *sub,
		    struct student_grade *g)
{
	if (!bo->resume)
		return false;
	char *path = xasprintf("%s/%s.json", bo->out_dir, sub->student);
	char *cause = NULL;
	bool ok =
		access(path, F_OK) == 0 && grade_report_read(path, bo->assignment, g, &cause) == 0;
	if (ok && g->source_hash != submission_hash(sub->path)) {
		student_grade_free(g); /* handed in again since: graded again */
		ok = false;
	}
	free(cause);
	free(path);
	if (ok && bo->progress)
		bo->progress(bo->ctx, g, 0, true);
	return ok;
}

size_t batch_grade(const struct batch_options *bo, const struct submission *subs, size_t n,
		   struct student_grade *grades)
{
	unsigned jobs = bo->jobs ? bo->jobs : 1;
	struct grader_child *running = xcalloc(jobs, sizeof *running);
	size_t nrunning = 0, next = 0, done = 0, failed_reports = 0;
	const char *current = NULL;
	while ((next < n && !interrupt_signal()) || nrunning > 0) {
		while (next < n && nrunning < jobs && !interrupt_signal()) {
			if (resumed(bo, &subs[next], &grades[next])) {
				next++;
				done++;
				continue;
			}
			int *others = xcalloc(nrunning + 1, sizeof *others);
			for (size_t i = 0; i < nrunning; i++)
				others[i] = running[i].fd;
			struct grader_job job = { bo, &subs[next] };
			int fd;
			pid_t pid = child_start(grade_job, &job, others, nrunning, &fd);
			free(others);
			current = subs[next].student;
			running[nrunning++] = (struct grader_child){
				.pid = pid, .fd = fd, .index = next++, .start_ns = clock_now_ns()
			};
		}
		if (nrunning == 0)
			continue;
		if (bo->tick)
			bo->tick(bo->ctx, done, n, current);
		/* Read whatever any grader sent; one whose pipe closed has finished. */
		struct pollfd *pfds = xcalloc(nrunning, sizeof *pfds);
		for (size_t i = 0; i < nrunning; i++)
			pfds[i] = (struct pollfd){ .fd = running[i].fd, .events = POLLIN };
		int wait_ms = bo->tick ? 250 : -1;
		while (poll(pfds, nrunning, wait_ms) < 0 && errno == EINTR && !interrupt_signal())
			;
		for (size_t i = nrunning; i-- > 0;) {
			if (!(pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char chunk[4096];
			ssize_t got = read(running[i].fd, chunk, sizeof chunk);
			if (got > 0) {
				strbuf_append(&running[i].got, chunk, (size_t)got);
				continue;
			}
			if (got < 0 && errno == EINTR)
				continue;
			int status = 0;
			while (waitpid(running[i].pid, &status, 0) < 0 && errno == EINTR)
				;
			interrupt_untrack(running[i].pid);
			failed_reports += finish_child(bo, &running[i], subs, grades, status);
			done++;
			running[i] = running[--nrunning];
		}
		free(pfds);
	}
	free(running);
	return failed_reports;
}
