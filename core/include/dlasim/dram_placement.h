/* SPDX-License-Identifier: MIT */
/*
 * DRAM tile-placement plugins (DLASIM_KIND_DRAM_PLACEMENT): where a neural
 * network accelerator's data tiles (DTiles) live in DRAM, and in which
 * order the DMA engine sends their requests.
 *
 * A DTile is what the DMA engine moves as one piece: a weight tile, or a
 * band of one channel group of a feature map (docs/nna.md).  The DRAM has
 * channels x ranks x banks per rank x rows per bank; a row (page) holds
 * blocks, the unit of one request.  Bank b of a rank is in bank group
 * b % bankgroups, bank b / bankgroups of that group, so consecutive bank
 * numbers alternate bank groups.
 *
 * place()      gives a DTile its DRAM locations: extents (runs of blocks
 *              in one row of one bank) covering its blocks in order.  The
 *              weights and the network input are placed at model load, in
 *              the order of their first use; every feature-map DTile when
 *              the layer producing it finishes it (its write follows).
 * release()    (optional) a DTile's data is dead: its blocks are free
 *              again when release() returns.
 * next_bank()  (optional) the issue order: which bank sends the DMA's next
 *              request, from its read or its write list.  Each bank keeps
 *              the rowTasks (the part of an extent one transfer touches)
 *              scheduled on it in two lists, served front first.  Without
 *              next_bank() the DMA sends each transfer's requests round-
 *              robin over the banks the transfer touches, one request per
 *              bank in turn, and interleaves the transfers in flight.
 *
 * The host checks every answer and stops with one message naming the
 * plugin when an extent is outside the device or runs past its row, when
 * extents overlap live data or each other, when they do not hold exactly
 * the DTile's blocks, when a plugin that declares
 * DLASIM_DRAM_ROW_PER_ROWTASK gives a DTile other than one row of its own
 * per rowTask (1 KiB of it), or when next_bank() picks a list with
 * nothing in it.
 *
 * Callbacks run inside SimGrid actors and must not block.  Structs are
 * append-only and start with their size.  Guide: docs/nna-plugins.md.
 */
#ifndef DLASIM_DRAM_PLACEMENT_H
#define DLASIM_DRAM_PLACEMENT_H

#include <stdbool.h>

#include <dlasim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLASIM_DRAM_OPS_VERSION 1u

struct dlasim_dram_geometry {
	size_t size;
	int channels;
	int ranks;		/* per channel */
	int bankgroups;		/* per rank */
	int banks;		/* per rank, all groups */
	int rows;		/* per bank */
	int row_bytes;		/* page */
	int block_bytes;	/* one request */
	int blocks_per_row;
};

enum dlasim_dtile_kind {
	DLASIM_DTILE_INPUT = 0,		/* the network's input */
	DLASIM_DTILE_WEIGHT = 1,	/* a weight tile */
	DLASIM_DTILE_FMAP = 2,		/* a tile of a layer's output */
};

struct dlasim_dtile {
	size_t size;
	long gid;		/* the DTile's number, unique in the run */
	enum dlasim_dtile_kind kind;
	int layer;		/* producing layer (FMAP), first reader (others) */
	double bytes;
	long blocks;		/* ceil(bytes / block_bytes) */
	int rowtasks;		/* ceil(bytes / row_bytes) */
	bool at_load;		/* placed at model load, before the run */
};

/* Blocks [col, col + blocks) of row `row` of bank (ch, rk, bank). */
struct dlasim_dram_extent {
	int ch, rk, bank;
	int row;
	int col;
	int blocks;
};

/* An answer of next_bank(). */
struct dlasim_dram_pick {
	int ch, rk, bank;
	bool write;		/* from the bank's write list, else its read list */
};

struct dlasim_dram_ctx;		/* the run, handed to every callback */

/* Flags of struct dlasim_dram_ops. */
#define DLASIM_DRAM_ROW_PER_ROWTASK 0x1u	/* each row_bytes of a DTile in a row of its own */

struct dlasim_dram_ops {
	size_t size;		/* sizeof(struct dlasim_dram_ops) of the plugin */
	unsigned flags;
	/* Write at most `max` extents into ext[], their number into *n;
	 * DLASIM_OK, or DLASIM_ERR after logging why (the DRAM is full). */
	int (*place)(void *state, struct dlasim_dram_ctx *ctx, const struct dlasim_dtile *tile,
		     struct dlasim_dram_extent *ext, int max, int *n);
	void (*release)(void *state, struct dlasim_dram_ctx *ctx, const struct dlasim_dtile *tile,
			const struct dlasim_dram_extent *ext, int n);
	/* Called only when some list is not empty.  DLASIM_OK or DLASIM_ERR. */
	int (*next_bank)(void *state, struct dlasim_dram_ctx *ctx, struct dlasim_dram_pick *pick);
};

struct dlasim_dram_services {
	size_t size;
	const struct dlasim_dram_geometry *(*geometry)(const struct dlasim_dram_ctx *ctx);
	/* rowTasks scheduled on a bank and not yet sent, read and write
	 * (SchNum); the DTile being placed is not counted yet.  During model
	 * load, the load's own writes. */
	int (*scheduled)(const struct dlasim_dram_ctx *ctx, int ch, int rk, int bank);
	/* rowTasks in a bank's read or write list. */
	int (*pending)(const struct dlasim_dram_ctx *ctx, int ch, int rk, int bank, bool write);
	/* The first row >= from of a bank that holds no live data, or -1. */
	int (*next_free_row)(const struct dlasim_dram_ctx *ctx, int ch, int rk, int bank, int from);
	/* Whether an extent is inside the device and holds no live data. */
	bool (*is_free)(const struct dlasim_dram_ctx *ctx, const struct dlasim_dram_extent *ext);
};

#ifdef __cplusplus
}
#endif

#endif /* DLASIM_DRAM_PLACEMENT_H */
