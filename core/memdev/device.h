/* SPDX-License-Identifier: MIT */
/*
 * What a memory device is to its users: its configuration, a request and
 * the statistics (memdev.h has the functions).  Every kind of device
 * (memdev_kind) reads the same structures.
 */
#ifndef DL_MEMDEV_DEVICE_H
#define DL_MEMDEV_DEVICE_H

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

#endif
