/* SPDX-License-Identifier: MIT */
/*
 * Collective engine: runs a collective plugin's channels as SimGrid actors
 * and gives them the point-to-point services of <dlasim/coll.h>.
 * Used by `dlasim coll` and by anything that synchronizes devices (training).
 */
#ifndef DL_COLL_H
#define DL_COLL_H

#include <stdbool.h>

#include <dlasim/coll.h>

#include "machine/platform.h"
#include "machine/traffic.h"

struct dl_coll;

/* Load the collective plugin `spec` (for option `option`) on platform p. */
int dl_coll_open(struct dl_coll **out, struct dl_platform *p, const char *spec,
		 const char *option);
/* The same for a communicator group: its ranks 0 .. nmembers-1 are the
 * platform ranks members[] (distinct, in range: the caller checks), its
 * rings the platform's restricted to them, its system nodes those with
 * members.  members NULL: every device, as dl_coll_open(). */
int dl_coll_open_group(struct dl_coll **out, struct dl_platform *p, const char *spec,
		       const char *option, const int *members, int nmembers);
void dl_coll_close(struct dl_coll *c);
/* Before any platform is read: is `spec` a collective plugin dlasim can
 * load (plugin/plugin.h, dl_plugin_check)?  0, or -1 after a message. */
int dl_coll_check(const char *spec, const char *option);
const char *dl_coll_name(const struct dl_coll *c);
/* Does the plugin run `op` (plugins without supports() run the operations
 * before all-to-all)?  dl_coll_require(): 0, or -1 after one line. */
bool dl_coll_supports(const struct dl_coll *c, enum dlasim_coll_op op);
int dl_coll_require(const struct dl_coll *c, enum dlasim_coll_op op, const char *option);
/* Count every transfer of the collectives in `t` (NULL: none). */
void dl_coll_set_traffic(struct dl_coll *c, struct dl_traffic *t);
const char *dl_coll_path(const struct dl_coll *c);

/*
 * Run this rank's part of one collective; call from an actor, on every
 * rank, in the same order (SPMD).  Returns when all of the rank's channels
 * are done.  On a plugin failure the simulation is stopped (dl_sim_fail).
 */
void dl_coll_call(struct dl_coll *c, int rank, const struct dlasim_coll_call *call);

/*
 * The collective plugin a run uses when none is asked for, by platform:
 * scale-out (system nodes) "hier" (rings inside and across the nodes, as
 * NCCL does for large all-reduces); above 64 devices "ring_flow" (the
 * step-by-step ring costs O(N^2) transfers); else "ring".  The rings run
 * both ways (bidir=1; hier: inside the nodes) when the platform's links
 * are full-duplex (dl_coll_full_duplex).
 */
const char *dl_coll_default(const struct dl_platform *p);
/* The same for operation `op`: all-to-all runs the "alltoall" plugin. */
const char *dl_coll_default_op(const struct dl_platform *p, enum dlasim_coll_op op);
/* The same choice for `devices` devices in `nodes` system nodes (0: one
 * machine); `duplex` false gives the one-direction rings of the
 * memory-centric paper's accounting, which its study reproduces. */
const char *dl_coll_default_for(int devices, int nodes, bool duplex);
/* Whether every link but the memory channels is SPLITDUPLEX or FATPIPE
 * and every ring member has a route to its predecessor. */
bool dl_coll_full_duplex(const struct dl_platform *p);

/* Parse "allreduce", "allgather", "reducescatter", "broadcast", "alltoall". */
int dl_coll_op_parse(const char *s, enum dlasim_coll_op *op);
const char *dl_coll_op_name(enum dlasim_coll_op op);

/*
 * NCCL-tests' bus bandwidth factor (nccl-tests, doc/PERFORMANCE.md): the
 * algorithm bandwidth S/t times this is the per-rank link bandwidth an
 * optimal algorithm would need, comparable across rank counts:
 * all-reduce 2(n-1)/n, all-gather and reduce-scatter (n-1)/n (S the whole
 * buffer, as dlasim's S is), broadcast 1.
 */
double dl_coll_bus_factor(enum dlasim_coll_op op, int ranks);

#endif
