/* SPDX-License-Identifier: MIT */
/*
 * A memory device's description: geometry, address mapping, timing and
 * controller policies, read from a key = value file that uses DRAMsim3's
 * field names (a DRAMsim3 .ini is accepted as it is), or taken from a
 * preset.  Every value and its source: docs/memdev.md.
 */
#ifndef DL_MEMDEV_CONFIG_H
#define DL_MEMDEV_CONFIG_H

#include <stdbool.h>

enum memdev_kind {
	MEMDEV_DDR = 0,		/* command-level DDR4 (banks, rows, JEDEC timing) */
	MEMDEV_NVM = 1,		/* bank occupancy: fixed read and write times */
};

enum memdev_field { MF_RO, MF_BA, MF_BG, MF_RA, MF_CH, MF_CO, MF_FIELDS };

enum memdev_page_policy { MEMDEV_OPEN_PAGE, MEMDEV_CLOSE_PAGE };
enum memdev_sched { MEMDEV_FRFCFS, MEMDEV_FCFS };
enum memdev_refresh { MEMDEV_REF_STAGGERED, MEMDEV_REF_SIMULTANEOUS, MEMDEV_REF_NONE };
enum memdev_interleave { MEMDEV_PAGE = 0, MEMDEV_LINE = 1 };

struct memdev_config {
	char name[64];
	enum memdev_kind kind;

	/* geometry */
	int channels, ranks, bankgroups, banks_per_group;
	long rows;
	int columns;		/* per device, as in DRAMsim3 */
	int device_width;	/* bits */
	int bus_width;		/* bits per channel */
	int BL;			/* burst length */
	long channel_size_mb;	/* DRAMsim3's way of giving the ranks (0: ranks given) */

	/* DDR timing, in cycles of tCK */
	double tCK_ns;
	int AL, CL, CWL, tRCD, tRP, tRAS, tRFC, tREFI, tRRD_S, tRRD_L;
	int tWTR_S, tWTR_L, tFAW, tWR, tRTP, tCCD_S, tCCD_L, tRTRS, tRPRE, tWPRE;

	/* NVM timing */
	double read_ns, write_ns;
	int line_bytes;
	long page_bytes;
	enum memdev_interleave interleave;

	/* controller */
	char mapping[16];	/* six two-letter fields, MSB first: "robabgrachco" */
	enum memdev_page_policy page_policy;
	enum memdev_sched sched;
	enum memdev_refresh refresh;
	int cmd_queue_size, trans_queue_size, write_buf_size;
	/* Verification aid: visit every cycle of a busy channel instead of
	 * jumping to its next event (the results must be the same); 2: DDR4
	 * also finds every value it keeps between steps again at each visit. */
	int step_every_cycle;

	/* derived by memdev_config_finish() */
	int banks;		/* per rank: bankgroups x banks_per_group */
	int block_bytes;	/* bytes of one request: bus_width / 8 x BL */
	long row_bytes;		/* bytes of one row of a rank */
	int bits[MF_FIELDS];	/* address bits of each field */
	int shift[MF_FIELDS];	/* bit position of each field (after the block offset) */
	int offset_bits;	/* log2(block_bytes) */
	double capacity_bytes;
};

/* Read `file`; reports the first problem as file:line and returns -1. */
int memdev_config_read(const char *file, struct memdev_config *cfg);
/* A built-in device by name: "nvm" (seed 003, Table 4.1),
 * "ddr4-2400-x8-2ch2rk" (Table 5.3).  -1 if there is none. */
int memdev_preset(const char *name, struct memdev_config *cfg);
/* The names of the presets, joined by ", " (for messages). */
const char *memdev_preset_names(void);
/* Check a filled-in configuration and derive the rest; reports what is
 * wrong prefixed by `where`. */
int memdev_config_finish(struct memdev_config *cfg, const char *where);
/* ddr.c, from the controller's own delays: the longest a DDR4 rank may
 * take, from the cycle a refresh falls due, to have refreshed and served a
 * column command.  memdev_config_finish() wants tREFI above it, or a rank
 * could refresh forever and serve nothing. */
int md_ddr_refresh_need(const struct memdev_config *c);

#endif
