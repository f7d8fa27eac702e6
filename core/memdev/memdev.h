/* SPDX-License-Identifier: MIT */
/*
 * A memory device: channels, ranks and banks behind one controller, one
 * request queue per bank served in arrival order, each bank busy with one
 * request at a time for the device's read or write time.  Event-driven:
 * the caller enqueues requests at the current time, asks when the next
 * one completes and advances the device to a time, which completes the
 * requests due by then in completion order (docs/memdev.md).  The
 * configuration, requests and statistics are in device.h.
 */
#ifndef DL_MEMDEV_H
#define DL_MEMDEV_H

#include <stdbool.h>

#include "device.h"

/* A preset by name ("nvm"); -1 if there is none of that name. */
int memdev_preset(const char *name, struct memdev_config *out);

struct memdev;

struct memdev *memdev_open(const struct memdev_config *cfg);
void memdev_close(struct memdev *d);
const struct memdev_config *memdev_config(const struct memdev *d);

/* Banks of the whole device (channels x ranks x banks), and the one an
 * address maps to, numbered channel-major. */
int memdev_banks(const struct memdev *d);
int memdev_bank_of(const struct memdev *d, long addr);
int memdev_channel_of(const struct memdev *d, int bank);
/* Requests queued at a bank or in service there. */
int memdev_bank_pending(const struct memdev *d, int bank);
/* Requests written to a bank so far (reads, writes). */
void memdev_bank_counts(const struct memdev *d, int bank, long *reads, long *writes);

/* Queue `r` (owned by the caller until it completes) at time `now`. */
void memdev_enqueue(struct memdev *d, struct memdev_req *r, double now);
/* When the next request of `channel` completes; INFINITY if none is
 * pending. */
double memdev_next_event(const struct memdev *d, int channel);
/* Complete, in completion order, every request of `channel` due by
 * `now`, calling done(arg, r) for each (which may enqueue more). */
void memdev_advance(struct memdev *d, int channel, double now,
		    void (*done)(void *arg, struct memdev_req *r), void *arg);

void memdev_stats(const struct memdev *d, double now, struct memdev_stats *s);

/*
 * Read a configuration file (key = value lines, DRAMsim3's key names;
 * docs/memdev.md) into *out; one message naming file:line on error.  The
 * strings of *out stay valid until the next call.
 */
int memdev_config_read(const char *file, struct memdev_config *out);

/* Whether a request of `blocks` at `addr` may be enqueued now (MEMDEV_DDR
 * has a transaction queue per channel; the other kind always may). */
bool memdev_will_accept(const struct memdev *d, long addr, int blocks);

/* MEMDEV_DDR: the address of block `block` of row `row` of bank `bank`
 * (bank = bank in group * bankgroups + bank group) of rank `rk` of
 * channel `ch`, under the device's mapping; -1 outside the device. */
long memdev_ddr_address(const struct memdev *d, int ch, int rk, int bank, int row, int block);

#endif
