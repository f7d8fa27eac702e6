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

/* Read and check the platform, start SimGrid on it, bind the handles. */
int dl_engine_start(const char *platform_file, struct dl_platform **out);
/* The same with the platform given as XML text (a built-in platform);
 * `what` names it in messages. */
int dl_engine_start_xml(const char *xml, const char *what, struct dl_platform **out);
/* Run the simulation to its end; 0 (failures end the process). */
int dl_engine_run(void);

/*
 * From inside an actor, after reporting an error: end the run (and the
 * process, with a failure status, removing unfinished result files).
 */
void dl_sim_fail(void) __attribute__((noreturn));
/* Report an error from inside an actor and end the run. */
void dl_sim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

struct dl_plugin;
/* A plugin did something wrong during the run: "<kind> plugin 'name'
 * (path)<where>: <message>", and the run ends.  `where` may be "". */
void dl_sim_plugin_error(const struct dl_plugin *p, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/* Create an actor on `host` running fn(arg). */
sg_actor_t dl_actor_start(const char *name, sg_host_t host, void (*fn)(void *), void *arg);

#endif
