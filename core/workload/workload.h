/* SPDX-License-Identifier: MIT */
/*
 * Workloads: a network as a list of layers with shapes (docs/workloads.md),
 * read from a .dnn file.  Shapes are per sample; everything that depends on
 * the batch (MACs, feature-map bytes) is derived by the caller.
 */
#ifndef MC_WORKLOAD_H
#define MC_WORKLOAD_H

#include <stdbool.h>

#include "lib/dtype.h"
#include "lib/strmap.h"

/* Bytes per element of the paper's workloads (fp32); a .dnn file may name
 * another type (mc_workload.elem_bytes). */
#define MC_ELEM_BYTES 4.0

#define MC_MAX_INPUTS 8

enum mc_layer_kind {
	MC_INPUT,
	MC_CONV,
	MC_FC,
	MC_RELU,
	MC_POOL,
	MC_LRN,
	MC_BN,
	MC_ADD,
	MC_CONCAT,
	MC_RNN,		/* vanilla recurrent layer: 1 gate */
	MC_LSTM,	/* 4 gates */
	MC_GRU,		/* 3 gates */
	MC_KINDS
};

struct mc_layer {
	char *name;
	int line;
	enum mc_layer_kind kind;
	int in[MC_MAX_INPUTS];	/* producing layers (indices) */
	int nin;
	/* Output shape per sample: c x h x w (an RNN: h = w = 1, c = hidden). */
	long c, h, w;
	/* conv / pool */
	long kernel, stride, pad, groups;
	/* recurrent: timesteps and input features per step */
	long steps, features;
	/* derived, per sample */
	double macs;		/* forward multiply-accumulates */
	double out_elems;	/* output elements (per step for RNNs) */
	double in_elems;	/* input elements, all inputs (per step) */
	double weights;		/* parameters */
};

/*
 * Caps, checked as the file is read: layers, and steps of an iteration
 * (a layer is one step, a recurrent layer one per timestep), which is what
 * a plan holds per device.  Every dimension is at most 2^30.
 */
#define MC_MAX_LAYERS (1 << 20)
#define MC_MAX_STEPS (1 << 24)

struct mc_workload {
	char *file;
	char *name;
	struct mc_layer *layer;
	int nlayers;
	long long nsteps;		/* steps of an iteration */
	struct dl_strmap by_name;	/* layer name -> index */
	enum dl_dtype dtype;		/* 'dtype' line; fp32 without one */
	double elem_bytes;		/* bytes of one element of dtype */
	bool dtype_given;
};

/* Read and check `file`; one message naming file:line on error. */
int mc_workload_read(struct mc_workload **out, const char *file);
void mc_workload_free(struct mc_workload *w);

/* Heavy layers multiply matrices and keep their outputs for backward
 * (migrated); the others are cheap and recomputed in backward. */
bool mc_layer_heavy(const struct mc_layer *l);
bool mc_layer_recurrent(const struct mc_layer *l);
/* Gates of a recurrent layer (1, 4, 3), 0 otherwise. */
int mc_layer_gates(const struct mc_layer *l);
const char *mc_layer_kind_name(enum mc_layer_kind k);

/* Totals per sample (for reports and tests). */
double mc_workload_weights(const struct mc_workload *w);
double mc_workload_macs(const struct mc_workload *w);

#endif
