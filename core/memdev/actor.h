/* SPDX-License-Identifier: MIT */
/*
 * A channel of a memory device driven by a SimGrid actor, for clients that
 * are actors themselves (DMA engines, memory controllers): they hand
 * requests over at the current simulated time, and the channel's actor
 * sleeps until the channel's next event (or until a request arrives),
 * advances the device and calls `done` for each completed request.  The
 * actor is a daemon: the simulation ends when the clients do.
 *
 * Timing convention (memdev.h): cycle e is done at (e + 1/2) tCK, so the
 * order in which actors run at one instant never changes the results.
 */
#ifndef DL_MEMDEV_ACTOR_H
#define DL_MEMDEV_ACTOR_H

#include <simgrid/forward.h>

#include "memdev.h"

struct memdev_actor;

/* Start the actor of channel `ch` on `host`; NULL after a message. */
struct memdev_actor *memdev_actor_start(struct memdev *d, int ch, sg_host_t host,
					memdev_done_fn done, void *arg);
/* Hand `r` over now; -1 if the channel has no room (see wait_room). */
int memdev_actor_submit(struct memdev_actor *a, struct memdev_req *r);
/* Block the calling actor until the channel has room for `r`. */
void memdev_actor_wait_room(struct memdev_actor *a, const struct memdev_req *r);
/* Requests were enqueued directly (memdev_enqueue): look again. */
void memdev_actor_kick(struct memdev_actor *a);
/* After the simulation: free what the actor used. */
void memdev_actor_free(struct memdev_actor *a);

#endif
