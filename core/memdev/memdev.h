/* SPDX-License-Identifier: MIT */
/*
 * A memory device behind its controller: a command-level DDR4 model (banks,
 * rows, JEDEC timing, per-bank command queues, refresh) or an NVM bank
 * model (fixed read and write occupancy per bank).  Plain C, event-driven,
 * no SimGrid inside: the caller enqueues requests at the current time, asks
 * when a channel's next event is, and advances the channel to a time; each
 * request that completes by then is handed to the caller's callback, which
 * may enqueue more (at the completion time).  Times are seconds at this
 * interface, device cycles inside.  Model and statistics: docs/memdev.md.
 *
 * Requests must be handed to a channel in time order (as SimGrid actors
 * do): enqueue at `now` after the channel was advanced to no later than
 * `now`.  actor.h drives a channel from a SimGrid actor.
 */
#ifndef DL_MEMDEV_H
#define DL_MEMDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "request.h"

struct memdev;

/* NULL after a message (out of memory). */
struct memdev *memdev_open(const struct memdev_config *cfg);
void memdev_close(struct memdev *d);
const struct memdev_config *memdev_config(const struct memdev *d);

int memdev_channels(const struct memdev *d);
/* Banks of the whole device, numbered channel, rank, bank group, bank
 * (bank group fastest within a rank's banks as DRAMsim3 counts them). */
int memdev_banks(const struct memdev *d);
int memdev_bank_index(const struct memdev *d, const struct memdev_addr *a);
int memdev_channel_of(const struct memdev *d, int bank);
void memdev_decode(const struct memdev *d, uint64_t addr, struct memdev_addr *a);
uint64_t memdev_encode(const struct memdev *d, const struct memdev_addr *a);
int memdev_bank_of(const struct memdev *d, uint64_t addr);
/* Requests outstanding at a bank: queued (transaction or command queue)
 * or in service.  The load LAP and LALEA balance. */
int memdev_bank_pending(const struct memdev *d, int bank);

/* Whether `r` may be enqueued: its channel's queue has room and the
 * request lies in the device (a DDR burst within one row). */
bool memdev_can_accept(const struct memdev *d, const struct memdev_req *r);
/* Why memdev_enqueue() would refuse `r` (NULL if it would not). */
const char *memdev_check(const struct memdev *d, const struct memdev_req *r);
/* Queue `r` (the caller's memory until its completion) at time `now`;
 * -1 when memdev_can_accept() is false. */
int memdev_enqueue(struct memdev *d, struct memdev_req *r, double now);
/* The same in steps, for a caller that asks for room more than once for
 * one request: where `r` goes (*a; NULL) or why it cannot be taken, found
 * once; whether the queue of `a`'s channel has room for it now; queue a
 * request memdev_place() accepted (when memdev_room() is true). */
const char *memdev_place(const struct memdev *d, const struct memdev_req *r,
			 struct memdev_addr *a);
/* The other way, for a caller that knows where its request goes: the
 * address of `blocks` at `a` (*addr), or why the device has no such place. */
const char *memdev_locate(const struct memdev *d, const struct memdev_addr *a, unsigned blocks,
			  uint64_t *addr);
bool memdev_room(const struct memdev *d, const struct memdev_addr *a, bool write);
void memdev_enqueue_placed(struct memdev *d, struct memdev_req *r, const struct memdev_addr *a,
			   double now);

/* When channel `ch` next has something to do; INFINITY when idle. */
double memdev_next_event(const struct memdev *d, int ch);
/* Process every event of channel `ch` up to time `now`, in time order,
 * calling done() for each completed request (with r->done_s set). */
void memdev_advance(struct memdev *d, int ch, double now, memdev_done_fn done, void *arg);
/* The same for every channel at once, in time order across channels. */
void memdev_advance_all(struct memdev *d, double now, memdev_done_fn done, void *arg);
/* Earliest next event over the channels; INFINITY when all are idle.
 * memdev_advance_all() to the time it gave needs no conversion. */
double memdev_next_event_all(struct memdev *d);
/* Requests enqueued and not completed. */
long memdev_outstanding(const struct memdev *d);

/* Statistics from time 0 to `now` (every channel advanced to `now`). */
void memdev_stats(struct memdev *d, double now, struct memdev_stats *s);
/* The same over the first `cycles` cycles, exact at any cycle. */
void memdev_stats_cycles(struct memdev *d, int64_t cycles, struct memdev_stats *s);

#endif
