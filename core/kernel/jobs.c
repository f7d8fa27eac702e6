/* SPDX-License-Identifier: MIT */
#include "jobs.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"

struct slot {
	pid_t pid;
	int fd;
	int index;
};

int dl_jobs_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static void child(int index, int fd, dl_job_fn job, void *arg)
{
	FILE *out = fdopen(fd, "w");
	int rc;

	if (!out)
		_exit(1);
	rc = job(index, out, arg);
	if (fclose(out) != 0 && rc == 0)
		rc = 1;
	fflush(stderr);
	/* No atexit handlers: the parent owns every shared resource. */
	_exit(rc ? 1 : 0);
}

static int start(struct slot *s, int index, dl_job_fn job, void *arg)
{
	int p[2];

	if (pipe(p) != 0)
		return dl_err("cannot create a pipe: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	s->pid = fork();
	if (s->pid < 0) {
		close(p[0]);
		close(p[1]);
		return dl_err("cannot fork: %s", strerror(errno));
	}
	if (s->pid == 0) {
		close(p[0]);
		child(index, p[1], job, arg);
	}
	close(p[1]);
	s->fd = p[0];
	s->index = index;
	return 0;
}

/* Append what is readable on s->fd; returns 1 at end of file. */
static int drain(struct slot *s, struct dl_job_result *r)
{
	char buf[65536];
	ssize_t n = read(s->fd, buf, sizeof(buf));
	char *grown;

	if (n < 0)
		return errno == EINTR ? 0 : 1;
	if (n == 0)
		return 1;
	grown = realloc(r->data, r->len + (size_t)n + 1);
	if (!grown)
		return 1;
	r->data = grown;
	memcpy(r->data + r->len, buf, (size_t)n);
	r->len += (size_t)n;
	r->data[r->len] = '\0';
	return 0;
}

static void finish(struct slot *s, struct dl_job_result *r)
{
	int status;

	close(s->fd);
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	else
		r->status = 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	s->pid = 0;
}

static void progress(const char *what, int done, int count, int failed)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r%s: %d/%d runs done%s", what, done, count,
		failed ? " (some failed)" : "");
	if (done == count)
		fputc('\n', stderr);
	fflush(stderr);
}

int dl_jobs_run(int count, int parallel, dl_job_fn job, void *arg,
		struct dl_job_result *results, const char *what)
{
	struct slot *slots;
	struct pollfd *fds;
	int next = 0, running = 0, done = 0, failed = 0, ret = 0;

	if (parallel <= 0)
		parallel = dl_jobs_cpus();
	if (parallel > count)
		parallel = count > 0 ? count : 1;
	memset(results, 0, (size_t)count * sizeof(*results));
	slots = calloc((size_t)parallel, sizeof(*slots));
	fds = calloc((size_t)parallel, sizeof(*fds));
	if (!slots || !fds) {
		free(slots);
		free(fds);
		return dl_err("out of memory");
	}
	progress(what, 0, count, 0);
	while (done < count) {
		for (int i = 0; i < parallel && next < count && !ret; i++) {
			if (slots[i].pid)
				continue;
			if (start(&slots[i], next, job, arg)) {
				ret = -1;
				break;
			}
			next++;
			running++;
		}
		if (!running)
			break;
		for (int i = 0; i < parallel; i++) {
			fds[i].fd = slots[i].pid ? slots[i].fd : -1;
			fds[i].events = POLLIN;
			fds[i].revents = 0;
		}
		if (poll(fds, (nfds_t)parallel, -1) < 0 && errno != EINTR) {
			ret = dl_err("poll: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < parallel; i++) {
			struct dl_job_result *r;

			if (!slots[i].pid || !fds[i].revents)
				continue;
			r = &results[slots[i].index];
			if (!drain(&slots[i], r))
				continue;
			finish(&slots[i], r);
			running--;
			done++;
			if (r->status)
				failed++;
			progress(what, done, count, failed);
		}
	}
	for (int i = 0; i < parallel; i++) {
		if (slots[i].pid) {
			kill(slots[i].pid, SIGTERM);
			finish(&slots[i], &results[slots[i].index]);
		}
	}
	free(slots);
	free(fds);
	if (failed && !ret)
		ret = dl_err("%s: %d of %d runs failed", what, failed, count);
	return ret;
}

void dl_jobs_free(struct dl_job_result *results, int count)
{
	for (int i = 0; i < count; i++)
		free(results[i].data);
}
