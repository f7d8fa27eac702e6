/* SPDX-License-Identifier: MIT */
/*
 * The DRAM traffic of a schedule, counted exactly: what every step reads
 * (weight and IFMAP tiles not on chip), what every finished OFMAP tile
 * reads (its skip tensor's part) and writes.  The same walk drives the
 * simulated DMA; this count needs no timing and no placement.
 */
#ifndef NNA_TRAFFIC_H
#define NNA_TRAFFIC_H

#include "schedule.h"
#include "tiling.h"

struct nna_traffic {
	double weight_bytes;	/* weight tiles read */
	double ifmap_bytes;	/* IFMAP tiles read */
	double skip_bytes;	/* residual operands read */
	double write_bytes;	/* OFMAP tiles written */
	double read_blocks;	/* DRAM read requests */
	double write_blocks;	/* DRAM write requests */
};

/* Per layer (t[nlayers], zeroed by the caller) and in total (sum). */
void nna_traffic_count(const struct nna_tiles *x, const struct nna_schedule *s,
		       struct nna_traffic *per_layer, struct nna_traffic *sum);

/* Bytes the model holds in DRAM at load (weights and inputs), and all
 * feature maps ever written. */
double nna_load_bytes(const struct nna_tiles *x);
double nna_fmap_bytes(const struct nna_tiles *x);

#endif
