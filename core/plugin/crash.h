/* SPDX-License-Identifier: MIT */
/*
 * A plugin that crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT in its
 * own code or in a call it made) is named in one line, "<kind> plugin
 * 'name' (path) crashed: Segmentation fault", the process removes what is
 * on lib/cleanup.h's list and exits with status 1 (in a study the run
 * fails with that line as its reason).  A crash elsewhere is dlasim's own
 * defect: it goes on to the handler that was there before (the default
 * action, a sanitizer's report), as if this one were not.
 */
#ifndef DL_CRASH_H
#define DL_CRASH_H

/* Install the handlers, on an alternate stack (a plugin may overflow its
 * actor's stack).  Once, before SimGrid starts (SimGrid keeps them). */
void dl_crash_install(void);

#endif
