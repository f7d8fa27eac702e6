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

/*
 * Options every simulating command takes (train, coll, tier): add
 * DL_ENGINE_OPTIONS to its getopt table and DL_ENGINE_USAGE to its help,
 * and hand those two option codes to dl_engine_option() before
 * dl_engine_start().
 *   --trace FILE      SimGrid's Paje trace of the run: actor states, host
 *                     and link usage (docs/traces.md)
 *   --cfg NAME:VALUE  a SimGrid option from machine/sgcfg.h's list
 */
#define DL_ENGINE_OPT_TRACE 0x1001
#define DL_ENGINE_OPT_CFG 0x1002
#define DL_ENGINE_OPTIONS \
	{ "trace", required_argument, NULL, DL_ENGINE_OPT_TRACE }, \
	{ "cfg", required_argument, NULL, DL_ENGINE_OPT_CFG }
#define DL_ENGINE_USAGE \
	"  --trace FILE          SimGrid's Paje trace of the run (docs/traces.md)\n" \
	"  --cfg NAME:VALUE      a SimGrid option, repeatable ('--cfg help' lists them)\n"
/* Take option c (one of the two above) with its value; -1 to go on, else
 * an exit status (a bad value is reported; '--cfg help' lists, exits 0). */
int dl_engine_option(const char *cmd, int c, const char *arg);

/*
 * The most bytes one transfer may carry: SimGrid counts a message's
 * payload in a signed 64-bit integer; 2^62 B (4.6 EB) leaves room for
 * its sums.  Whatever sizes a transfer checks against this first.
 */
#define DL_MAX_TRANSFER_BYTES 4611686018427387904.0

/* Read and check the platform, start SimGrid on it, bind the handles. */
int dl_engine_start(const char *platform_file, struct dl_platform **out);
/* The same with the platform given as XML text (a built-in platform);
 * `what` names it in messages. */
int dl_engine_start_xml(const char *xml, const char *what, struct dl_platform **out);
/* Run the simulation to its end and close the trace; 0, or -1 when the
 * trace cannot be written (failures inside the run end the process). */
int dl_engine_run(void);

/*
 * The end of a process that started the engine, with exit status `status`
 * (stdout already closed): the process ends here, without SimGrid's
 * teardown; returns only if no engine was started or the build checks
 * leaks at exit (sanitizers), where the process must exit normally.
 */
void dl_engine_exit(int status);

/*
 * From inside an actor, after reporting an error: end the run (and the
 * process, with a failure status, removing unfinished result files).
 */
void dl_sim_fail(void) __attribute__((noreturn));
/* Report an error from inside an actor and end the run. */
void dl_sim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Create an actor on `host` running fn(arg). */
sg_actor_t dl_actor_start(const char *name, sg_host_t host, void (*fn)(void *), void *arg);

#endif
