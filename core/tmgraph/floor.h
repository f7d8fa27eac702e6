/* SPDX-License-Identifier: MIT */
/*
 * What every placement of an iteration must do, whatever the policy: the
 * least time and the least flash traffic with a tier 1 of a given size
 * (docs/tier.md, "The floor").
 */
#ifndef DL_TIER_FLOOR_H
#define DL_TIER_FLOOR_H

#include "graph.h"

struct tg_floor {
	double time_s;			/* least iteration time */
	double flash_read_bytes;	/* least bytes read from flash */
	double flash_write_bytes;	/* least bytes written to flash */
	double pass_saving_bytes;	/* most off-chip reads tier-2 blocks held
					 * in SRAM can save (Algorithm 2) */
};

/* The bandwidths (bytes/s, each > 0) of the links data cross: tier 1's
 * (shared by reads and writes), the flash's read and write links, the
 * chip's network port. */
struct tg_links {
	double tier1_Bps, flash_read_Bps, flash_write_Bps, network_Bps;
};

/* The floor of `g` with `tier1_bytes` of tier 1 on links `l`; -1 when
 * memory runs out. */
int tier_graph_floor(const struct tier_graph *g, double tier1_bytes, const struct tg_links *l,
		     struct tg_floor *f);

#endif
