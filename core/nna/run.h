/* SPDX-License-Identifier: MIT */
/* One inference of a workload on the NNA (docs/nna.md). */
#ifndef NNA_RUN_H
#define NNA_RUN_H

#include <stddef.h>

#include "net.h"

/* The DRAM of Table 5.3 (platforms/dram/) and the DMA's request size. */
#define NNA_DRAM_DEFAULT "ddr4-2400-x8-2ch2rk.conf"
#define NNA_BURST_DEFAULT 1

struct nna_config {
	const char *workload;
	const char *dataflow;		/* plugin spec */
	const char *placement;		/* plugin spec */
	const char *dram;		/* DRAM configuration file */
	int sa;				/* T = U */
	double spm_bytes;
	int elem_bytes;
	int burst;			/* blocks a DMA request carries, at most */
};

/* Time by layer class (Figures 5.2 and 5.3). */
struct nna_class_time {
	double time_s;			/* layers' share of the inference */
	double stall_s;			/* of which the array waits for data */
	int layers;
};

struct nna_result {
	char workload[64], dataflow[64], placement[64];
	int sa;
	double spm_bytes;
	int elem_bytes;
	int layers;
	long steps;
	long dtiles;

	double inference_time_s;	/* end of the last write */
	double last_transfer_end_s;	/* the DRAM's last completed transfer */
	double compute_s;		/* systolic array busy */
	double stall_s;			/* systolic array waiting for data */

	double read_bytes, write_bytes;	/* DRAM, as requested */
	double read_blocks, write_blocks;	/* DRAM requests (8-byte blocks) */
	double weight_bytes, ifmap_bytes, skip_bytes;

	double busy_s;			/* some request outstanding */
	double bandwidth_busy_Bps;	/* bytes / busy time (Figure 5.12) */
	double bandwidth_total_Bps;	/* bytes / inference time */
	double clp;			/* channels busy, while any is (Figure 5.13) */
	double blp;			/* banks busy, while any is (Figure 5.14) */
	double row_hit_rate;
	double channels_used;		/* channels holding any data */

	/* Average rowTasks per DTile (Table 5.2): per OFMAP DTile placed, per
	 * feature-map DTile piece read; and per weight tile read. */
	double rowtasks_per_written_dtile;
	double rowtasks_per_read;
	double rowtasks_per_weight_read;

	double load_bytes;		/* weights and inputs at model load */
	double fmap_bytes;		/* every feature map written */

	/* Layers whose input spans more than one channel group (C > T): the
	 * layers ARAI reorders (Section 5.5.5's "wide layers", which the
	 * array's size decides); their time and their IFMAP reads. */
	int multigroup_layers;
	double multigroup_time_s;
	double multigroup_ifmap_bytes;

	struct nna_class_time cls[NNA_CLASSES];
};

/* Run one inference; one message on error. */
int nna_run(const struct nna_config *cfg, struct nna_result *res);

#endif
