/* SPDX-License-Identifier: MIT */
/* What passes between a memory device and its caller: requests, where an
 * address lives, completions and statistics (memdev.h has the device). */
#ifndef DL_MEMDEV_REQUEST_H
#define DL_MEMDEV_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

/* Where an address lives. */
struct memdev_addr {
	int ch, rk, bg, ba;	/* NVM: bg = 0, ba = bank of the rank */
	long row;		/* NVM: 0 */
	int col;		/* block index in the row; NVM: 0 */
};

struct memdev_req {
	uint64_t addr;		/* byte address of the first block */
	unsigned blocks;	/* DDR: consecutive blocks in one row (0 = 1); NVM: 1 */
	bool write;
	void *tag;		/* the caller's */
	double arrive_s;	/* filled by the device at enqueue */
	double done_s;		/* filled by the device at completion */
	/* private to the device */
	struct memdev_req *next;
	int64_t arrive_cyc;
	int bank;		/* device-wide bank index */
	long row;
	int col;
};

/* Latency histogram buckets: bucket k counts latencies in
 * [2^(k-1), 2^k) cycles (bucket 0: below 1). */
#define MEMDEV_HIST 24

struct memdev_stats {
	double elapsed_s;	/* from 0 to `now` */
	int64_t elapsed_cycles;	/* the same, exact at any cycle */
	long requests;		/* completed */
	long reads, writes;	/* blocks (column commands) */
	double bytes;
	long acts, pres, refs;
	long row_hits;		/* column commands not the first after their ACT */
	double busy_s;		/* some request outstanding somewhere */
	double channel_busy_s;	/* sum over channels of their busy time */
	double bank_busy_s;	/* sum over banks of their busy time */
	double bw_busy_Bps;	/* bytes / busy_s */
	double bw_total_Bps;	/* bytes / elapsed_s */
	double row_hit_rate;	/* row_hits / (reads + writes) */
	double clp, blp;	/* channels, banks busy on average while any is */
	double latency_mean_s, latency_max_s;
	long hist[MEMDEV_HIST];
	double cycle_s;		/* the device's cycle (tCK) */
};

typedef void (*memdev_done_fn)(void *arg, struct memdev_req *r);

#endif
