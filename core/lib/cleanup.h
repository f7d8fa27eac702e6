/* SPDX-License-Identifier: MIT */
/*
 * What a process leaves behind if it is interrupted: temporary files and
 * directories, and the process groups of the children it started.  Each is
 * registered while it exists; on SIGINT, SIGTERM, SIGHUP or SIGPIPE the
 * children are killed, the paths removed (newest first, so a directory's
 * files go before it) and the process dies of the same signal.
 */
#ifndef DL_CLEANUP_H
#define DL_CLEANUP_H

#include <sys/types.h>

/* Install the handlers (again: SimGrid's start-up takes SIGINT over). */
void dl_cleanup_install(void);

/* Remove `path` (a file or an empty directory) if the process is
 * interrupted.  0, or -1 out of memory (reported). */
int dl_cleanup_add_path(const char *path);
/* `path` is gone or kept for good: forget it. */
void dl_cleanup_forget_path(const char *path);

/* Kill process group `pgid` if the process is interrupted. */
int dl_cleanup_add_group(pid_t pgid);
void dl_cleanup_forget_group(pid_t pgid);

/*
 * fork() a child that leads a process group of its own (so that a timeout
 * or an interrupt kills it and whatever it started) and that is told to
 * stop (SIGTERM) if this process dies first.  The child starts with an
 * empty list; the parent has the child's group on its list until
 * dl_cleanup_forget_group().  Returns as fork() does.
 */
pid_t dl_cleanup_fork(void);

/* Undo everything registered now (async-signal-safe: for fatal paths). */
void dl_cleanup_run(void);

#endif
