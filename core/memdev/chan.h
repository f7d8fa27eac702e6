/* SPDX-License-Identifier: MIT */
/*
 * Inside core/memdev: one channel of a device and what its kind (DDR or
 * NVM) implements.  memdev.c owns the device and the event loops; ddr.c
 * and nvm.c schedule a channel's requests; account.c keeps the accounting
 * common to both kinds (outstanding requests, busy time, latency).
 */
#ifndef DL_MEMDEV_CHAN_H
#define DL_MEMDEV_CHAN_H

#include <stdint.h>

#include "config.h"
#include "request.h"

#define MD_NEVER INT64_MAX

struct md_chan;

struct md_kind {
	void *(*open)(struct md_chan *c);
	void (*free)(void *impl);
	/* Earliest cycle >= c->clk with something to do, MD_NEVER if none.  A
	 * kind may keep the value in c->next_at and set c->next_ok: the event
	 * loops then use max(next_at, clk) without calling next() until the
	 * kind clears next_ok. */
	int64_t (*next)(struct md_chan *c);
	/* Do what happens at cycle `e` (= next()); c->clk is already e + 1. */
	void (*step)(struct md_chan *c, int64_t e);
	/* Room in the channel's queue for a request of this direction. */
	bool (*room)(const struct md_chan *c, bool write);
	/* Take `r` (checked, arrive_cyc and bank set). */
	void (*accept)(struct md_chan *c, struct memdev_req *r);
};

extern const struct md_kind md_ddr, md_nvm;

/* Closed busy intervals of a channel not yet merged into the device's. */
struct md_intervals {
	int64_t (*v)[2];
	int head, n, cap;
};

struct md_chan {
	struct memdev *d;
	int index;
	int64_t clk;		/* cycles before clk are done */
	int64_t next_at;	/* next(), before the max with clk, if next_ok */
	bool next_ok;
	int out;		/* requests outstanding */
	int64_t since;		/* start of the current busy interval */
	int64_t busy;		/* closed busy cycles */
	struct md_intervals iv;
	void *impl;
};

struct memdev {
	struct memdev_config cfg;
	const struct md_kind *kind;
	double cycle_s;
	int nch, banks_per_ch;
	int fshift[MF_FIELDS];		/* DDR: each address field's position */
	uint64_t fmask[MF_FIELDS];	/* and mask (from cfg) */
	uint64_t align_mask;		/* DDR: block_bytes - 1 if a power of two, else 0 */
	unsigned row_blocks;		/* DDR: blocks in a row (columns / BL) */
	struct md_chan *ch;
	int *bank_out;
	int64_t *bank_since, bank_busy;
	int64_t last_cyc;		/* latest time a caller used */
	/* The last time memdev_next_event_all() gave and its cycle, so that
	 * advancing to that time does not convert it back. */
	double next_s;
	int64_t next_cyc;
	int64_t union_until, union_busy;	/* device-wide busy time merged so far */
	/* the callback of the running advance */
	memdev_done_fn done;
	void *done_arg;
	/* counters */
	long requests, reads, writes, acts, pres, refs, row_hits;
	double bytes, lat_sum;
	int64_t lat_max;
	long hist[MEMDEV_HIST];
};

/* memdev.c: memdev_enqueue_placed() at the cycle `t` instead of a time;
 * the earliest next event of the channels (MD_NEVER if none);
 * memdev_advance_all() up to the end of cycle `until`: for a caller that
 * works in cycles (the replay), exact at any cycle, where converting
 * through seconds is not. */
void md_enqueue_cycle(struct memdev *d, struct memdev_req *r, const struct memdev_addr *a,
		      int64_t t);
int64_t md_next_all(const struct memdev *d);
void md_run_all(struct memdev *d, int64_t until, memdev_done_fn done, void *arg);

/* account.c: a request arrived at a bank of channel c at cycle t; one
 * completed at cycle `t` (accounting, then the caller's callback); the
 * device-wide busy time up to cycle x. */
void md_busy_start(struct md_chan *c, int bank, int64_t t);
void md_complete(struct md_chan *c, struct memdev_req *r, int64_t t);
void md_merge_until(struct memdev *d, int64_t x);

#endif
