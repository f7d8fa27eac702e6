/* SPDX-License-Identifier: MIT */
/*
 * The schedule: every layer's steps in the order the dataflow plugin
 * gives, checked, with what each step reads and finishes.  The scratchpad
 * keeps the tiles of the step in use; a step reads its weight tile or its
 * IFMAP tile unless the step before used the same one (docs/nna.md).
 */
#ifndef NNA_SCHEDULE_H
#define NNA_SCHEDULE_H

#include <dlasim/dataflow.h>

#include "plugin/plugin.h"
#include "tiling.h"

/* Flags of a step. */
#define NNA_READ_WEIGHT 0x1	/* its weight tile comes from DRAM */
#define NNA_READ_IFMAP 0x2	/* its IFMAP tile comes from DRAM */
#define NNA_FINAL 0x4		/* it is the last contribution to its OFMAP tile */

struct nna_schedule {
	struct dlasim_df_step *step;
	unsigned char *flags;
	long nsteps;
	long *first;		/* per layer: its first step; first[nlayers] = nsteps */
	int *max_open;		/* per layer: OFMAP tiles open at once, at most */
};

/* The dataflow services plugins receive (host->dataflow). */
extern const struct dlasim_dataflow_services nna_dataflow_services;

/* Checks a dataflow plugin's ops when it is opened. */
bool nna_dataflow_ops_check(const void *ops, const char **why);

/* Ask the plugin for every layer's steps; one message naming the plugin
 * (or the workload) on error. */
int nna_schedule_build(struct nna_schedule *s, const struct nna_tiles *x,
		       const struct dl_plugin *plugin);
void nna_schedule_free(struct nna_schedule *s);

#endif
