/* SPDX-License-Identifier: MIT */
/*
 * One training iteration of a workload on one chip, as a sequence of ops
 * (forward, recompute, backward; per layer; per data label) and the
 * tensors they read and write.  Derivation: docs/tier.md.
 */
#ifndef DL_TIER_GRAPH_H
#define DL_TIER_GRAPH_H

#include <dlasim/tier.h>

#include "workload.h"

#define TG_MAX_IN 8
#define TG_MAX_OUT 6
#define TG_NAME 40

struct tg_tensor {
	struct dlasim_tier_tensor pub;
	char name[TG_NAME];
	int *uses;		/* ops reading it, ascending */
	int nuses, cap;
};

struct tg_op {
	struct dlasim_tier_op pub;
	char name[TG_NAME];
	struct dlasim_tier_operand in[TG_MAX_IN];
	int out[TG_MAX_OUT];
	double m, k, n, count;	/* GEMM shape, 0 for a DMA-only op */
	double sram_bytes;	/* CMEM + VMEM byte accesses (Algorithm 2) */
};

/* The per-chip slice of the workload. */
struct tg_dims {
	double b;		/* sequences per chip */
	double s, d, dh, hc, kvc, fc, vc, ffm;
	long layers, mp;
};

struct tier_graph {
	struct tg_tensor *t;
	int nt, capt;
	struct tg_op *ops;
	int nops, capops;
	struct tg_dims dims;
	double peak_bytes;	/* most data live at once */
	int peak_op;
	double data_bytes;	/* off-chip bytes an HBM-only chip moves */
	double macs;
	double compute_s;	/* MXU time of the iteration */
};

int tier_graph_build(struct tier_graph *g, const struct tier_workload *w, double batch_scale);
void tier_graph_free(struct tier_graph *g);
/* First op after `after` reading `tensor`, or DLASIM_TIER_NEVER. */
int tier_graph_next_use(const struct tier_graph *g, int tensor, int after);

#endif
