/* SPDX-License-Identifier: MIT */
/*
 * Traffic ledger: the bytes every link carried, counted exactly from the
 * transfers themselves (size and route), for each direction of a
 * full-duplex link.  (SimGrid's link load plugin integrates link usage
 * over time and also counts a message's latency period at the link's rate,
 * some bandwidth x latency bytes per message too many.)
 */
#ifndef DL_TRAFFIC_H
#define DL_TRAFFIC_H

#include <stdbool.h>
#include <stdio.h>

#include <simgrid/forward.h>

#include "platform.h"

struct dl_traffic;

int dl_traffic_open(struct dl_traffic **out, const struct dl_platform *p);
void dl_traffic_close(struct dl_traffic *t);

/* Count `bytes` sent from host `src` to host `dst` on every link of the
 * route.  Safe with t == NULL (nothing counted). */
void dl_traffic_add(struct dl_traffic *t, sg_host_t src, sg_host_t dst, double bytes);

/* The route from src to dst as counter slots, 2 * link + direction (0: UP
 * or shared, 1: DOWN); returns how many, -1 if unknown. */
int dl_traffic_route(struct dl_traffic *t, sg_host_t src, sg_host_t dst, const int **slots);

/* Bytes carried by link i (platform index) in direction d (0: UP or the
 * shared link, 1: DOWN). */
double dl_traffic_bytes(const struct dl_traffic *t, int link, int dir);

/*
 * The per-link statistics file (docs/outputs.md, --link-stats): one CSV
 * line per link and direction with the bytes the n ledgers t[] counted
 * together, and the busy fraction of an iteration of `seconds`.
 */
void dl_traffic_write_csv(const struct dl_platform *p, const struct dl_traffic *const *t, int n,
			  double seconds, FILE *f);

#endif
