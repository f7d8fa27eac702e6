/* SPDX-License-Identifier: MIT */
/*
 * A transformer training workload (workloads/tm/NAME.tm): published model
 * dimensions and the parallelism of TM-Training's Table 3.  The format is
 * documented in docs/tier.md.
 */
#ifndef DL_TIER_WORKLOAD_H
#define DL_TIER_WORKLOAD_H

/* Caps of the keys, checked as the file is read (docs/tier.md). */
#define TIER_MAX_LAYERS 4096
#define TIER_MAX_WIDTH (1L << 24)	/* widths, heads, vocabulary, sequence */
#define TIER_MAX_BATCH (1L << 30)
#define TIER_MAX_CHIPS (1L << 20)	/* pods, model and data parallelism */

struct tier_workload {
	char *file;
	char name[64];
	long layers;		/* decoder-only: its layers; else the encoder's */
	long decoder_layers;	/* encoder-decoder (T5): the decoder's, else 0 */
	long d_model;
	long heads;
	long kv_heads;		/* key/value heads (1: multi-query attention) */
	long head_dim;
	long d_ff;
	long ff_matrices;	/* 2, or 3 for gated (SwiGLU) feed-forward */
	long vocab;
	long seq;
	long batch;		/* global batch, sequences */
	long pods;		/* Table 3: pods, each with a share of the batch */
	long model_parallel;	/* heads, d_ff and vocabulary split over chips */
	long data_parallel;	/* per pod */
	double params;		/* stated parameter count (reference only) */
};

/* Read and check `file`; one message naming file:line on error. */
int tier_workload_read(struct tier_workload *w, const char *file);
void tier_workload_free(struct tier_workload *w);

/* Parameters implied by the dimensions (what the simulation moves). */
double tier_workload_params(const struct tier_workload *w);

#endif
