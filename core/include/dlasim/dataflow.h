/* SPDX-License-Identifier: MIT */
/*
 * Dataflow plugins (DLASIM_KIND_DATAFLOW): the order in which a neural
 * network accelerator's weight-stationary systolic array (SA) works
 * through the tiles of a layer.
 *
 * The host maps a layer onto the SA as a GEMM (NHWC, implicit im2col):
 * the SA has T rows and U columns; a weight tile holds the weights of U
 * filters for one filter pixel (r, s) and T input channels (channel group
 * f); the IFMAP tile it multiplies is channel group f of the input map,
 * or of one band of output rows when the map does not fit the scratchpad
 * (y).  A layer is thus a set of steps (k, f, r, s, y), k the block of U
 * filters; each step computes on one weight tile and one IFMAP tile and
 * adds into the OFMAP tile (k, y), which is final (and written to DRAM)
 * after its last contribution.  A depthwise layer has one channel group
 * per filter block (f = 0 names channel group k); a fully connected layer
 * has R = S = 1 and one band.
 *
 * The host owns the scratchpad: it keeps the tiles of the step in use and
 * prefetches those of the next (double buffering); a tile not used by the
 * next step is released, so an IFMAP tile used again later is read from
 * DRAM again.  The order is therefore what decides the DRAM traffic.
 *
 * A plugin gives either:
 *   order()      a permutation of the five tile loops, outermost first,
 *                per layer (the host runs the loop nest), or
 *   next_step()  the steps one at a time (general plugins).
 * The host checks every answer and stops with one message naming the
 * plugin when an order is not a permutation, a step is out of range or
 * repeated, a layer ends with steps missing, or an order keeps more
 * partial-sum tiles open than the scratchpad holds.
 *
 * Callbacks are called before the simulation starts, once per layer, in
 * the network's order.  Structs are append-only and start with their size.
 * Guide: docs/nna-plugins.md.
 */
#ifndef DLASIM_DATAFLOW_H
#define DLASIM_DATAFLOW_H

#include <stdbool.h>

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_DATAFLOW_OPS_VERSION 1u

enum dlasim_df_kind {
	DLASIM_DF_CONV = 0,		/* every filter reads every input channel */
	DLASIM_DF_DEPTHWISE = 1,	/* filter c reads input channel c only */
	DLASIM_DF_FC = 2,		/* fully connected: a 1x1 map of C features */
};

/* A layer as the SA sees it; its fused operators (normalisation,
 * activation, pooling, residual add) are the host's business. */
struct dlasim_df_layer {
	size_t size;
	int index;		/* compute layers numbered from 0 */
	const char *name;
	enum dlasim_df_kind kind;
	int H, W, C;		/* IFMAP rows, columns, channels */
	int K, R, S;		/* filters and their rows, columns */
	int stride, pad;	/* along the rows (bands hold whole rows) */
	int P, Q;		/* OFMAP rows and columns (before pooling) */
	int elem_bytes;		/* bytes per element */
};

struct dlasim_df_array {
	size_t size;
	int rows;		/* T: PE rows = input channels of a weight tile */
	int cols;		/* U: PE columns = filters of a weight tile */
	double spm_bytes;	/* on-chip scratchpad */
};

/* The tile loops. */
enum dlasim_df_loop {
	DLASIM_LOOP_K = 0,	/* filter block */
	DLASIM_LOOP_F = 1,	/* channel group */
	DLASIM_LOOP_R = 2,	/* filter row */
	DLASIM_LOOP_S = 3,	/* filter column */
	DLASIM_LOOP_Y = 4,	/* band of output rows */
	DLASIM_LOOPS = 5,
};

/* Trip count of every loop of a layer (the host's tiling). */
struct dlasim_df_tiles {
	size_t size;
	int n[DLASIM_LOOPS];
	int band_rows;		/* output rows per band (the last may have fewer) */
};

/* One step: an index per loop, from 0 to n[loop] - 1. */
struct dlasim_df_step {
	int at[DLASIM_LOOPS];
};

struct dlasim_df_ctx;		/* the layer being scheduled */

struct dlasim_dataflow_ops {
	size_t size;		/* sizeof(struct dlasim_dataflow_ops) of the plugin */
	/* The loop order for `layer`: perm[0] outermost.  DLASIM_OK or
	 * DLASIM_ERR.  Required unless next_step is given. */
	int (*order)(void *state, const struct dlasim_df_layer *layer,
		     const struct dlasim_df_array *array, const struct dlasim_df_tiles *tiles,
		     enum dlasim_df_loop perm[DLASIM_LOOPS]);
	/* Optional, replaces order(): write the layer's next step into *step
	 * and return 1, or return 0 after the last one (DLASIM_ERR on error).
	 * The host's services describe the layer and what is on chip. */
	int (*next_step)(void *state, struct dlasim_df_ctx *ctx, struct dlasim_df_step *step);
};

struct dlasim_dataflow_services {
	size_t size;
	const struct dlasim_df_layer *(*layer)(const struct dlasim_df_ctx *ctx);
	const struct dlasim_df_array *(*array)(const struct dlasim_df_ctx *ctx);
	const struct dlasim_df_tiles *(*tiles)(const struct dlasim_df_ctx *ctx);
	/* Bytes read from DRAM for the step's weight tile and IFMAP tile. */
	double (*weight_tile_bytes)(const struct dlasim_df_ctx *ctx, const struct dlasim_df_step *step);
	double (*ifmap_tile_bytes)(const struct dlasim_df_ctx *ctx, const struct dlasim_df_step *step);
	/* Whether the step's IFMAP tile is the one on chip after the steps
	 * given so far (the step would not read it again). */
	bool (*ifmap_on_chip)(const struct dlasim_df_ctx *ctx, const struct dlasim_df_step *step);
	/* Steps still to come that add into OFMAP tile (k, y). */
	int (*contributions_left)(const struct dlasim_df_ctx *ctx, int k, int y);
};

/* "K", "F", "R", "S", "Y". */
static inline const char *dlasim_df_loop_name(enum dlasim_df_loop l)
{
	static const char *const names[DLASIM_LOOPS] = { "K", "F", "R", "S", "Y" };

	return (unsigned)l < DLASIM_LOOPS ? names[l] : "?";
}

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_DATAFLOW_H */
