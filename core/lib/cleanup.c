/* SPDX-License-Identifier: MIT */
#include "cleanup.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "grow.h"

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

/* The handler reads these lists: they change only with the signals
 * blocked, and a slot is written before it is counted. */
static char **paths;
static int npaths, cappaths;
static pid_t *groups;
static int ngroups, capgroups;

static void block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NFATAL; i++)
		sigaddset(&set, fatal_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

int dl_cleanup_add_path(const char *path)
{
	char *copy = strdup(path);
	sigset_t old;
	int ret = 0;

	if (!copy)
		return dl_err("out of memory");
	block(&old);
	if (dl_grow((void **)&paths, &cappaths, npaths + 1, sizeof(*paths)) == 0)
		paths[npaths++] = copy;
	else
		ret = -1;
	unblock(&old);
	if (ret) {
		free(copy);
		return dl_err("out of memory");
	}
	return 0;
}

void dl_cleanup_forget_path(const char *path)
{
	char *gone = NULL;
	sigset_t old;

	block(&old);
	for (int i = npaths - 1; i >= 0; i--) {
		if (strcmp(paths[i], path) == 0) {
			gone = paths[i];
			memmove(&paths[i], &paths[i + 1], (size_t)(npaths - i - 1) * sizeof(*paths));
			npaths--;
			break;
		}
	}
	unblock(&old);
	free(gone);
}

int dl_cleanup_add_group(pid_t pgid)
{
	sigset_t old;
	int ret = 0;

	block(&old);
	if (dl_grow((void **)&groups, &capgroups, ngroups + 1, sizeof(*groups)) == 0)
		groups[ngroups++] = pgid;
	else
		ret = -1;
	unblock(&old);
	return ret ? dl_err("out of memory") : 0;
}

void dl_cleanup_forget_group(pid_t pgid)
{
	sigset_t old;

	block(&old);
	for (int i = 0; i < ngroups; i++) {
		if (groups[i] == pgid) {
			groups[i] = groups[--ngroups];
			break;
		}
	}
	unblock(&old);
}

/* Signals are blocked: the child cannot run the parent's list, nor the
 * parent lose the child between fork() and the list. */
pid_t dl_cleanup_fork(void)
{
	pid_t parent = getpid(), pid;
	sigset_t old;

	if (dl_grow((void **)&groups, &capgroups, ngroups + 1, sizeof(*groups)))
		return errno = ENOMEM, -1;
	block(&old);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < npaths; i++)
			free(paths[i]);
		npaths = 0;
		ngroups = 0;
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(EXIT_FAILURE);
	} else if (pid > 0) {
		setpgid(pid, pid);
		groups[ngroups++] = pid;
	}
	unblock(&old);
	return pid;
}

/* Children that were told to stop remove their own temporary files:
 * give them a moment (2 s at most) before the parent's go. */
static void reap_groups(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	for (int round = 0; round < 200; round++) {
		bool running = false;

		for (int i = 0; i < ngroups; i++)
			if (groups[i] > 0 && waitpid(groups[i], NULL, WNOHANG) == 0)
				running = true;
		if (!running)
			return;
		nanosleep(&tick, NULL);
	}
}

void dl_cleanup_run(void)
{
	int saved = errno;

	for (int i = 0; i < ngroups; i++)
		if (groups[i] > 0)
			kill(-groups[i], SIGTERM);
	reap_groups();
	ngroups = 0;
	for (int i = npaths - 1; i >= 0; i--)
		if (unlink(paths[i]) != 0 && (errno == EISDIR || errno == EPERM))
			rmdir(paths[i]);
	npaths = 0;
	errno = saved;
}

static void on_fatal_signal(int sig)
{
	dl_cleanup_run();
	/* Die of the same signal (delivered when the handler returns). */
	signal(sig, SIG_DFL);
	raise(sig);
}

void dl_cleanup_install(void)
{
	/* A signal ignored when the process started (nohup, a shell's
	 * background job) stays ignored, whatever took it over since. */
	static bool ignored[NFATAL], first = true;
	struct sigaction sa, old;

	for (size_t i = 0; first && i < NFATAL; i++)
		ignored[i] = sigaction(fatal_signals[i], NULL, &old) == 0 &&
			     old.sa_handler == SIG_IGN;
	first = false;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaddset(&sa.sa_mask, fatal_signals[i]);
	for (size_t i = 0; i < NFATAL; i++) {
		if (ignored[i])
			signal(fatal_signals[i], SIG_IGN);
		else
			sigaction(fatal_signals[i], &sa, NULL);
	}
}
