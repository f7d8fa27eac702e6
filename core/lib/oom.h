/* SPDX-License-Identifier: MIT */
/*
 * Memory that runs out inside SimGrid.  dlasim's own allocations are
 * checked where they are made; SimGrid's are C++ `new`, which throws
 * std::bad_alloc through dlasim's C frames, and SimGrid's terminate
 * handler prints a backtrace and aborts.  Before that, `new` calls the
 * process's new-handler: this one says "out of memory" in one line,
 * removes what is on lib/cleanup.h's list and exits with status 1.
 */
#ifndef DL_OOM_H
#define DL_OOM_H

/* Install the new-handler (once, before SimGrid starts).  The C++
 * runtime is SimGrid's: without it (no C++ loaded) nothing is done. */
void dl_oom_install(void);

#endif
