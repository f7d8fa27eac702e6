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

/* What models the device. */
enum memdev_kind {
	MEMDEV_OCCUPANCY = 0,	/* each bank busy read_s / write_s per request */
	MEMDEV_DDR = 1,		/* DDR4 commands and their timing (docs/memdev.md) */
};

/*
 * A DDR4 device and its controller, in DRAMsim3's terms: geometry per
 * channel, timing in clock cycles (tCK), the address mapping (a string of
 * two-letter fields from the most significant: ro row, ba bank, bg bank
 * group, ra rank, ch channel, co column), queues.
 */
struct memdev_ddr {
	int bankgroups, banks_per_group, rows, columns;
	int device_width, bus_width, BL;	/* bits, bits, beats */
	double tCK_s;
	int AL, CL, CWL, tRCD, tRP, tRAS, tRFC, tREFI, tRRD_S, tRRD_L;
	int tWTR_S, tWTR_L, tFAW, tWR, tRTP, tCCD_S, tCCD_L, tRTRS;
	char mapping[16];
	int trans_queue_size;	/* per channel, waiting for a command queue */
	int cmd_queue_size;	/* per bank */
};

struct memdev_config {
	const char *name;
	int channels, ranks, banks;	/* banks per rank */
	int line_bytes;			/* bytes of one request */
	long page_bytes;		/* interleaving unit of MEMDEV_PAGE */
	double capacity_bytes;
	double read_s, write_s;		/* bank occupancy of one request */
	enum memdev_interleave interleave;
	/* Appended for the DDR4 model; MEMDEV_OCCUPANCY needs none of it. */
	enum memdev_kind kind;
	struct memdev_ddr ddr;
};

/* A preset by name ("nvm"); -1 if there is none of that name. */
int memdev_preset(const char *name, struct memdev_config *out);

struct memdev_req {
	long addr;
	bool write;
	void *tag;			/* the caller's */
	double arrive_s, start_s, done_s;	/* filled by the device */
	struct memdev_req *next;	/* the device's */
	/* MEMDEV_DDR: a burst of `blocks` consecutive blocks of one row from
	 * addr (0 counts as 1), served as one request. */
	int blocks;
};

struct memdev_stats {
	long reads, writes;
	double bytes;
	double busy_s;			/* time any bank was busy */
	double bank_busy_s;		/* sum over banks of their busy time */
	double latency_sum_s;		/* arrival to completion, all requests */
	double latency_max_s;
	/* MEMDEV_DDR: busy means a request queued or in service; a block is
	 * one column access (line_bytes). */
	double read_bytes, write_bytes;
	double channel_busy_s;		/* sum over channels of their busy time */
	long row_hits, row_misses;	/* column accesses without / after an ACT */
	long activates, refreshes;
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
