/* SPDX-License-Identifier: MIT */
/*
 * The simulated accelerator (docs/nna.md, "Time"): SimGrid actors for
 * the systolic array, the DMA engine's prefetcher and writer, and the
 * memory (the DMA's request order and the DRAM, advanced in plain C up to
 * the next moment another actor can act).
 */
#ifndef NNA_SIM_H
#define NNA_SIM_H

#include <simgrid/cond.h>
#include <simgrid/mutex.h>

#include "dma.h"
#include "mem.h"
#include "schedule.h"
#include "tiling.h"

/* What the run measures, per layer. */
struct nna_layer_time {
	double start_s, end_s;	/* its span of the inference */
	double compute_s;	/* the array computing its steps */
};

struct nna_sim {
	/* Set by the caller. */
	const struct nna_tiles *x;
	const struct nna_schedule *s;
	struct dlasim_dram_ctx *dram;
	struct nna_dma *dma;
	struct nna_mem *mem;
	int clock_hz;			/* the array's clock */

	/* Results. */
	double end_s;
	double last_transfer_end_s;	/* DRAM time of the last completion */
	struct nna_layer_time *lt;	/* per layer */
	double written_dtiles, written_rowtasks;	/* FMAP DTiles placed */
	/* Pieces of feature-map DTiles read (IFMAP and skip operands: Table
	 * 5.2's "LAP for feature maps"), and weight tiles read. */
	double read_pieces, read_rowtasks;
	double weight_reads, weight_rowtasks;

	/* State shared by the actors. */
	sg_mutex_t mutex;
	sg_cond_t changed;
	long computed;			/* steps [0, computed) are done */
	unsigned char *ready;		/* per step: its loads are complete */
	int *tensor_left;		/* per tensor: DTiles still to be written */
	double sa_wake;			/* end of the array's compute, or INFINITY */
	long final_step;		/* a finished OFMAP tile for the writer, or -1 */
	int waiting;			/* transfers the writer waits for */
	bool done;			/* the last write is complete */
	/* Transfers the DRAM model has completed at the time the memory
	 * actor is about to reach: their effects wait until it is there
	 * (non-NULL: a transfer completed, the memory loop stops). */
	struct load *finished;
};

/* Run the actors on the engine started by the caller; 0 or -1. */
int nna_sim_run(struct nna_sim *sim);

#endif
