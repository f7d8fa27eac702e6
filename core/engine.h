/* SPDX-License-Identifier: MIT */
/*
 * The SimGrid engine of a dlasim process: one per process, configured for
 * the fluid network model dlasim documents (docs/collectives.md):
 * CM02 max-min sharing without TCP factors, cross-traffic or window limit,
 * so that a transfer of S bytes over a route of latency L and bottleneck
 * bandwidth B takes exactly L + S/B when alone.
 */
#ifndef DL_ENGINE_H
#define DL_ENGINE_H

#include <stdbool.h>

#include "platform.h"

/* Options of dl_engine_start(). */
#define DL_ENGINE_LINK_LOAD 0x1u	/* SimGrid's link load plugin (per-link bytes) */

/* Read and check the platform, start SimGrid on it, bind the handles. */
int dl_engine_start(const char *platform_file, unsigned flags, struct dl_platform **out);
/* Run the simulation; -1 if an actor reported a failure (dl_sim_fail). */
int dl_engine_run(void);

/*
 * Stop the whole simulation from inside an actor after reporting an error:
 * every actor is killed, dl_engine_run() returns -1.  Does not return.
 */
void dl_sim_fail(void) __attribute__((noreturn));
/* Report an error from inside an actor and stop the simulation; when several
 * actors fail at the same instant only the first message is printed. */
void dl_sim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
bool dl_sim_failed(void);

/* Create an actor on `host` running fn(arg). */
sg_actor_t dl_actor_start(const char *name, sg_host_t host, void (*fn)(void *), void *arg);

#endif
