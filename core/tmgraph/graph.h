/* SPDX-License-Identifier: MIT */
/*
 * One training iteration of a workload on one chip, as a sequence of ops
 * (forward, recompute, backward; per layer; per data label) and the
 * tensors they read and write.  Derivation: docs/tier.md.
 */
#ifndef DL_TIER_GRAPH_H
#define DL_TIER_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include <dlasim/tier.h>

#include "workload.h"

#define TG_MAX_IN 12
#define TG_MAX_OUT 12
#define TG_NAME 40

struct tg_tensor {
	struct dlasim_tier_tensor pub;
	char name[TG_NAME];
	int *uses;		/* ops reading it, ascending */
	int nuses, cap;
};

/* What an operand is to its op's GEMM (Algorithm 2 fetches each kind
 * differently). */
enum tg_role {
	TG_STREAMED,	/* the input streamed through the MXUs (all such
			 * operands of an op form one matrix) */
	TG_STATIONARY,	/* the weight-stationary operand: fetched once */
	TG_ONCE,	/* read once beside the GEMM (residual, derivative) */
};

struct tg_op {
	struct dlasim_tier_op pub;
	char name[TG_NAME];
	struct dlasim_tier_operand in[TG_MAX_IN];
	unsigned char role[TG_MAX_IN];	/* enum tg_role of each operand */
	int out[TG_MAX_OUT];
	double m, k, n, count;	/* shape of its first GEMM, 0 for a DMA-only op */
	double cycles;		/* MXU cycles of all its GEMMs */
	double onchip_bytes;	/* data it creates and uses on chip only */
	double sram_bytes;	/* CMEM + VMEM byte accesses (Algorithm 2) */
	double pass_bytes;	/* one pass of every operand (before the op) */
	double stream_bytes;	/* the other passes (while it computes) */
	double out_bytes;	/* results */
	bool network;		/* a collective over the inter-chip network */
	int prev_mxu;		/* the last op before it that is not a
				 * collective, -1 if none */
};

/* The per-chip slice of the workload (docs/tier.md, "The iteration"). */
struct tg_dims {
	double b;		/* sequences per chip: batch / (pods x data_parallel) */
	double s, d, dh;	/* sequence, model width, head width */
	double hc, kvc;		/* heads, key/value heads on the chip */
	double ffc, vc;		/* d_ff and vocabulary on the chip */
	double ffm;		/* feed-forward matrices (3: gated) */
	double mp, dp;		/* model and data parallelism (per pod) */
	long layers;		/* all of them, the encoder's first */
	long enc_layers;	/* < layers: the others are decoder layers */
	bool fsdp;		/* weights sharded at rest over data_parallel */
	long recomputed;	/* layers 0 .. recomputed - 1 keep only their
				 * input; the others keep their activations */
};

struct tier_graph {
	struct tg_tensor *t;
	int nt, capt;
	struct tg_op *ops;
	int nops, capops;
	struct tg_dims dims;
	char (*kinds)[TG_NAME];	/* op kinds (names without the layer) */
	int nkinds, capkinds;
	double peak_bytes;	/* most data live at once */
	int peak_op;
	double data_bytes;	/* data created or used: every tensor once */
	double traffic_bytes;	/* off-chip bytes an HBM-only chip moves */
	double network_bytes;	/* bytes the chip exchanges over the network */
	double macs;
	double compute_s;	/* MXU time of the iteration */
	double *start_s;	/* per op: MXU time of the ops before it */
};

/* Build the iteration of `w` (batch x batch_scale) that fits an address
 * space of `capacity_bytes`: weights sharded at rest only if they do not
 * fit otherwise, and as few layers recomputed as fit. */
int tier_graph_build(struct tier_graph *g, const struct tier_workload *w, double batch_scale,
		     double capacity_bytes);
void tier_graph_free(struct tier_graph *g);
/* The MXU times of a built graph on a chip whose MXUs run at `clock_hz`
 * instead of Table 1's (the NPU of a device description). */
void tier_graph_set_clock(struct tier_graph *g, double clock_hz);
/* First op after `after` reading `tensor`, or DLASIM_TIER_NEVER. */
int tier_graph_next_use(const struct tier_graph *g, int tensor, int after);
/* Bytes of `tensor` op `op` reads from off-chip, in tensor sizes
 * (Algorithm 2's passes included). */
double tier_graph_reads(const struct tier_graph *g, int tensor, int op);
/* graph.c, for graph_use.c: grow *v (of *cap elements of elem bytes) to
 * hold more than n, -1 when memory runs out; the sequence of g->dims
 * into g (emptied before), -1 when memory runs out. */
int tg_grow(void **v, int *cap, int n, size_t elem);
int tg_build(struct tier_graph *g);

/* Times operand `in` of op `o` is fetched when `tier2_bytes` of its tensor
 * are in tier 2: its tier-1 share every pass, its tier-2 share once if
 * it fits a core's SRAM (npu_share_fetches). */
double tg_tier2_fetches(const struct tg_op *o, const struct dlasim_tier_operand *in,
			double tier2_bytes);

#endif
