/* SPDX-License-Identifier: MIT */
/*
 * A memory device: channels, ranks and banks behind one controller, one
 * request queue per bank served in arrival order, each bank busy with one
 * request at a time for the device's read or write time.  Event-driven:
 * the caller enqueues requests at the current time, asks when the next
 * one completes and advances the device to a time, which completes the
 * requests due by then in completion order (docs/memdev.md).
 */
#ifndef DL_MEMDEV_H
#define DL_MEMDEV_H

#include <stdbool.h>

/* How consecutive addresses spread over the banks. */
enum memdev_interleave {
	MEMDEV_PAGE = 0,	/* a page (page_bytes) per bank, then the next bank */
	MEMDEV_LINE = 1,	/* a line (line_bytes) per bank */
};

struct memdev_config {
	const char *name;
	int channels, ranks, banks;	/* banks per rank */
	int line_bytes;			/* bytes of one request */
	long page_bytes;		/* interleaving unit of MEMDEV_PAGE */
	double capacity_bytes;
	double read_s, write_s;		/* bank occupancy of one request */
	enum memdev_interleave interleave;
};

/* A preset by name ("nvm"); -1 if there is none of that name. */
int memdev_preset(const char *name, struct memdev_config *out);

struct memdev_req {
	long addr;
	bool write;
	void *tag;			/* the caller's */
	double arrive_s, start_s, done_s;	/* filled by the device */
	struct memdev_req *next;	/* the device's */
};

struct memdev_stats {
	long reads, writes;
	double bytes;
	double busy_s;			/* time any bank was busy */
	double bank_busy_s;		/* sum over banks of their busy time */
	double latency_sum_s;		/* arrival to completion, all requests */
	double latency_max_s;
};

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

#endif
