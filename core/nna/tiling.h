/* SPDX-License-Identifier: MIT */
/*
 * Tiling: how each layer is cut into steps for the systolic array, and
 * how each tensor is stored in DRAM as DTiles (docs/nna.md, "Tiles").
 *
 * A stored tensor is cut into channel groups of T channels (the SA's
 * rows, also its columns: the array is square, so a producer's filter
 * block is a consumer's channel group) and bands of rows; DTile (g, b) is
 * channel group g of band b, its rows one after the other in NHWC order.
 * A layer's output is stored in the bands its own output bands become
 * after its fused pools; a network input in bands of its first reader.
 * Weight tiles are DTiles of their own, one per (k, r, s, f).
 */
#ifndef NNA_TILING_H
#define NNA_TILING_H

#include <stdbool.h>

#include <dlasim/dataflow.h>
#include <dlasim/dram_placement.h>

#include "net.h"

/* The accelerator's parameters (Table 5.3 by default). */
struct nna_array {
	int size;		/* T = U */
	double spm_bytes;
	int elem_bytes;
	int block_bytes;	/* DRAM request (8 B) */
	int row_bytes;		/* DRAM page (1 KiB) */
};

struct nna_tiling {
	int n[DLASIM_LOOPS];
	int band_rows;		/* output rows per band */
	double ifmap_max_bytes;	/* the largest IFMAP tile */
	double psum_bytes;	/* one open OFMAP tile's partial sums */
	double budget_bytes;	/* scratchpad left for open partial sums */
	long wbase;		/* DTile of weight tile (0, 0, 0, 0) */
	int nsteps;		/* n[K] x n[F] x n[R] x n[S] x n[Y] */
};

struct nna_layout {
	int groups;		/* channel groups */
	int nbands;
	int *band;		/* band b holds rows [band[b], band[b + 1]) */
	long base;		/* DTile of (0, 0); (g, b) is base + g * nbands + b */
};

struct nna_dtile {
	enum dlasim_dtile_kind kind;
	int layer;		/* producer (FMAP), first reader (INPUT, WEIGHT) */
	int tensor;		/* -1 for weights */
	long bytes;
};

/* A contiguous byte range of one DTile. */
struct nna_piece {
	long dtile;
	long offset, bytes;
};

struct nna_tiles {
	const struct nna_net *net;
	struct nna_array a;
	struct nna_tiling *t;		/* per layer */
	struct nna_layout *lay;		/* per tensor */
	struct nna_dtile *d;
	long ndtiles;
};

/* Tile every layer and lay out every tensor; one message on error. */
int nna_tiles_build(struct nna_tiles *x, const struct nna_net *net, const struct nna_array *a);
void nna_tiles_free(struct nna_tiles *x);

/* The step's tiles: its weight DTile, its IFMAP tile's channel group,
 * its OFMAP tile's index (k * n[Y] + y). */
long nna_weight_dtile(const struct nna_tiles *x, int layer, const int at[DLASIM_LOOPS]);
int nna_ifmap_group(const struct nna_tiles *x, int layer, const int at[DLASIM_LOOPS]);
int nna_ofmap_tile(const struct nna_tiles *x, int layer, int k, int y);

/* Output rows [*p0, *p1) of band y, before pooling. */
void nna_band_rows(const struct nna_tiles *x, int layer, int y, int *p0, int *p1);
/* Input rows [*r0, *r1) the band reads (inside the map, padding excluded). */
void nna_band_input_rows(const struct nna_tiles *x, int layer, int y, int *r0, int *r1);

/*
 * The pieces of DTiles a read consists of: the IFMAP tile (group g, band
 * y) of a layer, or its skip tensor's part for OFMAP tile (k, y).  Calls
 * fn for each piece, in order; returns the bytes read.
 */
typedef void (*nna_piece_fn)(const struct nna_piece *p, void *arg);
long nna_ifmap_pieces(const struct nna_tiles *x, int layer, int g, int y, nna_piece_fn fn,
		      void *arg);
long nna_skip_pieces(const struct nna_tiles *x, int layer, int k, int y, nna_piece_fn fn,
		     void *arg);
/* The DTile OFMAP tile (k, y) of a layer is written as. */
long nna_ofmap_dtile(const struct nna_tiles *x, int layer, int k, int y);

/* DTile d as placement plugins see it. */
void nna_dtile_describe(const struct nna_tiles *x, long d, struct dlasim_dtile *t);

/* Blocks a DTile occupies and the blocks a piece touches. */
long nna_blocks(const struct nna_tiles *x, long bytes);
long nna_piece_blocks(const struct nna_tiles *x, const struct nna_piece *p);

#endif
