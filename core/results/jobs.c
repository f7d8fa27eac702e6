/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cleanup.h"
#include "lib/diag.h"
#include "lib/units.h"

#define MSG_MAX 4096	/* longer message lines are cut */

/* One running child. */
struct slot {
	pid_t pid;		/* 0: free */
	int index;
	int data_fd, msg_fd;	/* -1 once at end of file */
	double started;		/* monotonic seconds */
	bool timed_out;
	bool lost;		/* its result did not fit in memory */
	char line[MSG_MAX];	/* message line being received */
	size_t linelen;
	char *held;		/* its last complete line: the reason if it fails */
};

int dl_jobs_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* ---- the progress line and messages ---- */

static bool progress_shown;

static void clear_progress(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}

static void progress(const struct dl_jobs *j, int done, int failed)
{
	if (!isatty(STDERR_FILENO))
		return;
	clear_progress();
	fprintf(stderr, "%s: %d/%d runs done", j->what, done, j->count);
	if (failed)
		fprintf(stderr, " (%d failed)", failed);
	progress_shown = done < j->count;
	if (!progress_shown)
		fputc('\n', stderr);
	fflush(stderr);
}

/* One whole line of a child's messages, passed on as it is. */
static void relay(const char *line)
{
	fflush(stdout);
	clear_progress();
	fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

/* ---- a child ---- */

static void child(const struct dl_jobs *j, int index, int data_fd, int msg_fd)
{
	FILE *out;
	int rc;

	/* Whatever the run prints goes through the message pipe. */
	if (dup2(msg_fd, STDERR_FILENO) < 0 || dup2(msg_fd, STDOUT_FILENO) < 0)
		_exit(EXIT_FAILURE);
	close(msg_fd);
	out = fdopen(data_fd, "w");
	if (!out)
		_exit(EXIT_FAILURE);
	rc = j->run(index, out, j->arg);
	if (fclose(out) != 0 && rc == 0)
		rc = dl_err("writing the result to the study: %s", strerror(errno));
	fflush(NULL);
	/* No atexit handlers: the parent owns every shared resource. */
	_exit(rc ? EXIT_FAILURE : EXIT_SUCCESS);
}

static int start(const struct dl_jobs *j, struct slot *s, int index)
{
	int data[2], msg[2];

	if (pipe2(data, O_CLOEXEC) != 0)
		return dl_err("%s: cannot create a pipe: %s", j->what, strerror(errno));
	if (pipe2(msg, O_CLOEXEC) != 0) {
		close(data[0]);
		close(data[1]);
		return dl_err("%s: cannot create a pipe: %s", j->what, strerror(errno));
	}
	fflush(NULL);
	s->pid = dl_cleanup_fork();
	if (s->pid == 0) {
		close(data[0]);
		close(msg[0]);
		child(j, index, data[1], msg[1]);
	}
	close(data[1]);
	close(msg[1]);
	if (s->pid < 0) {
		s->pid = 0;
		close(data[0]);
		close(msg[0]);
		return dl_err("%s: cannot fork: %s", j->what, strerror(errno));
	}
	s->index = index;
	s->data_fd = data[0];
	s->msg_fd = msg[0];
	s->started = now();
	s->timed_out = false;
	s->lost = false;
	s->linelen = 0;
	s->held = NULL;
	return 0;
}

/* A complete message line: pass the one held before on, hold this one. */
static void message_line(struct slot *s)
{
	s->line[s->linelen] = '\0';
	s->linelen = 0;
	if (s->held)
		relay(s->held);
	free(s->held);
	s->held = strdup(s->line);
}

static void read_messages(struct slot *s)
{
	char buf[4096];
	ssize_t n = read(s->msg_fd, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		if (s->linelen)
			message_line(s);
		close(s->msg_fd);
		s->msg_fd = -1;
		return;
	}
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] == '\n')
			message_line(s);
		else if (s->linelen < sizeof(s->line) - 1)
			s->line[s->linelen++] = buf[i];
	}
}

static void read_data(struct slot *s, struct dl_job_result *r)
{
	char buf[65536];
	ssize_t n = read(s->data_fd, buf, sizeof(buf));
	char *grown;

	if (n < 0 && errno == EINTR)
		return;
	if (n > 0 && (grown = realloc(r->data, r->len + (size_t)n + 1))) {
		r->data = grown;
		memcpy(r->data + r->len, buf, (size_t)n);
		r->len += (size_t)n;
		r->data[r->len] = '\0';
		return;
	}
	if (n > 0)	/* out of memory: the run counts as failed */
		s->lost = true;
	close(s->data_fd);
	s->data_fd = -1;
}

/* Why the child failed, in words; NULL if it did not. */
static char *failure(const struct slot *s, int status, double timeout_s)
{
	const char *said = s->held, *prefix = "dlasim: ";
	char *why = NULL;
	int rc;

	if (said && strncmp(said, prefix, strlen(prefix)) == 0)
		said += strlen(prefix);
	if (s->timed_out)
		rc = asprintf(&why, "timed out after %gs (--timeout)", timeout_s);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return NULL;
	else if (said && *said)
		rc = asprintf(&why, "%s", said);
	else if (WIFSIGNALED(status))
		rc = asprintf(&why, "killed by signal %d (%s)", WTERMSIG(status),
			      strsignal(WTERMSIG(status)));
	else
		rc = asprintf(&why, "exit status %d without a message", WEXITSTATUS(status));
	return rc < 0 ? strdup("(out of memory)") : why;
}

static void finish(const struct dl_jobs *j, struct slot *s, struct dl_job_result *r)
{
	char cmd[8192] = "";
	int status = 0;

	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	dl_cleanup_forget_group(s->pid);
	r->reason = failure(s, status, j->timeout_s);
	r->failed = r->reason || s->lost || (j->result_size && r->len != j->result_size);
	if (!r->failed) {
		if (s->held)
			relay(s->held);
		goto out;
	}
	/* A run that ends well with the wrong bytes is a defect: name it. */
	if (!r->reason && s->lost)
		r->reason = strdup("out of memory keeping its result");
	else if (!r->reason && asprintf(&r->reason, "internal error: %zu bytes of result, expected %zu",
					r->len, j->result_size) < 0)
		r->reason = NULL;
	free(r->data);
	r->data = NULL;
	r->len = 0;
	if (j->describe)
		j->describe(s->index, j->arg, cmd, sizeof(cmd));
	fflush(stdout);
	clear_progress();
	dl_err("%s: run %d failed: %s: %s", j->what, s->index + 1,
	       cmd[0] ? cmd : "(no command line)", r->reason ? r->reason : "(out of memory)");
out:
	free(s->held);
	s->held = NULL;
	s->pid = 0;
}

/* ---- the parent's loop ---- */

struct pool {
	const struct dl_jobs *j;
	struct dl_job_result *res;
	struct slot *slots;
	struct pollfd *fds;
	int parallel, next, running, done, failed;
};

/* Milliseconds until the first running child's time is up, -1: none. */
static int poll_timeout(const struct pool *p)
{
	double first = INFINITY, t = now();

	if (!(p->j->timeout_s > 0))
		return -1;
	for (int i = 0; i < p->parallel; i++)
		if (p->slots[i].pid && !p->slots[i].timed_out)
			first = fmin(first, p->slots[i].started + p->j->timeout_s - t);
	if (isinf(first))
		return -1;
	return first <= 0 ? 0 : (int)fmin(ceil(first * 1000), 60000);
}

static void enforce_timeouts(struct pool *p)
{
	double t = now();

	if (!(p->j->timeout_s > 0))
		return;
	for (int i = 0; i < p->parallel; i++) {
		struct slot *s = &p->slots[i];

		if (s->pid && !s->timed_out && t - s->started >= p->j->timeout_s) {
			s->timed_out = true;
			kill(-s->pid, SIGKILL);
		}
	}
}

static int fill(struct pool *p)
{
	for (int i = 0; i < p->parallel && p->next < p->j->count; i++) {
		if (p->slots[i].pid)
			continue;
		if (start(p->j, &p->slots[i], p->next))
			return -1;
		p->next++;
		p->running++;
	}
	return 0;
}

static int step(struct pool *p)
{
	int n = 0;

	for (int i = 0; i < p->parallel; i++) {
		const struct slot *s = &p->slots[i];

		p->fds[2 * i] = (struct pollfd){ .fd = s->pid ? s->data_fd : -1, .events = POLLIN };
		p->fds[2 * i + 1] = (struct pollfd){ .fd = s->pid ? s->msg_fd : -1, .events = POLLIN };
	}
	n = poll(p->fds, (nfds_t)(2 * p->parallel), poll_timeout(p));
	if (n < 0 && errno != EINTR)
		return dl_err("%s: poll: %s", p->j->what, strerror(errno));
	for (int i = 0; i < p->parallel && n > 0; i++) {
		struct slot *s = &p->slots[i];
		struct dl_job_result *r = &p->res[s->index];

		if (!s->pid)
			continue;
		if (p->fds[2 * i].revents)
			read_data(s, r);
		if (p->fds[2 * i + 1].revents)
			read_messages(s);
		if (s->data_fd >= 0 || s->msg_fd >= 0)
			continue;
		finish(p->j, s, r);
		p->running--;
		p->done++;
		p->failed += r->failed;
		progress(p->j, p->done, p->failed);
	}
	enforce_timeouts(p);
	return 0;
}

static void stop_all(struct pool *p)
{
	for (int i = 0; i < p->parallel; i++) {
		struct slot *s = &p->slots[i];

		if (!s->pid)
			continue;
		kill(-s->pid, SIGKILL);
		if (s->data_fd >= 0)
			close(s->data_fd);
		if (s->msg_fd >= 0)
			close(s->msg_fd);
		while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
			;
		dl_cleanup_forget_group(s->pid);
		free(s->held);
		s->pid = 0;
	}
}

int dl_jobs_run(const struct dl_jobs *j, struct dl_job_result *results)
{
	struct pool p = { .j = j, .res = results, .parallel = j->parallel };
	int ret = 0;

	if (p.parallel <= 0)
		p.parallel = dl_jobs_cpus();
	if (p.parallel > j->count)
		p.parallel = j->count > 0 ? j->count : 1;
	memset(results, 0, (size_t)j->count * sizeof(*results));
	p.slots = calloc((size_t)p.parallel, sizeof(*p.slots));
	p.fds = calloc((size_t)p.parallel * 2, sizeof(*p.fds));
	if (!p.slots || !p.fds) {
		ret = dl_err("out of memory");
		goto out;
	}
	progress(j, 0, 0);
	while (p.done < j->count) {
		if (fill(&p) || !p.running || step(&p)) {
			ret = -1;
			break;
		}
	}
	stop_all(&p);
	clear_progress();
out:
	free(p.slots);
	free(p.fds);
	return ret ? -1 : p.failed;
}

void dl_jobs_free(struct dl_job_result *results, int count)
{
	for (int i = 0; i < count; i++) {
		free(results[i].data);
		free(results[i].reason);
	}
}

const void *dl_job_data(const struct dl_job_result *r)
{
	return r->failed ? NULL : r->data;
}

int dl_jobs_status(const struct dl_jobs *j, int failed)
{
	if (failed <= 0)
		return DL_EXIT_OK;
	dl_err("%s: %d of %d runs failed (shown as n/a; each is named above)", j->what, failed,
	       j->count);
	return DL_EXIT_ERROR;
}

int dl_jobs_option(struct dl_jobs *j, int c, const char *value)
{
	const char *why;
	long n;

	switch (c) {
	case DL_JOBS_OPT_JOBS:
		if ((why = dl_parse_int(value, 1, 4096, &n)))
			return dl_bad_option(j->what, "--jobs", value, why), -1;
		j->parallel = (int)n;
		return 1;
	case DL_JOBS_OPT_TIMEOUT:
		if ((why = dl_parse_time(value, &j->timeout_s)))
			return dl_bad_option(j->what, "--timeout", value, why), -1;
		if (!(j->timeout_s > 0))
			return dl_bad_option(j->what, "--timeout", value, "must be greater than zero"), -1;
		return 1;
	default:
		return 0;
	}
}
