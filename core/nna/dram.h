/* SPDX-License-Identifier: MIT */
/*
 * The DRAM placement plugin's host: which blocks of the DRAM hold live
 * data, the DTiles' extents, the services plugins receive and the checks
 * of every answer (docs/nna.md, "Placement").
 *
 * Banks are numbered flat: (ch * ranks + rk) * banks + bank.
 */
#ifndef NNA_DRAM_H
#define NNA_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include <dlasim/dram_placement.h>

#include "plugin/plugin.h"

struct dlasim_dram_ctx {
	struct dlasim_dram_geometry g;
	const struct dl_plugin *plugin;
	struct dlasim_dram_ops ops;	/* the plugin's, as far as it has them */
	int nbanks;			/* channels x ranks x banks */
	uint16_t *used;			/* blocks holding live data, per row of every bank */
	uint64_t *bits;			/* which blocks, per row */
	int words;			/* 64-bit words per row in bits */
	int *hint;			/* per bank: no free row below it */
	/* Extents of every DTile, in DTile order. */
	struct dlasim_dram_extent *ext;
	long next, cap;
	long *first;			/* per DTile: its first extent, -1 if not placed */
	int *count;			/* per DTile: its extents */
	struct dlasim_dram_extent *answer;	/* room for a plugin's answer */
	int answer_max;
	int *load_scheduled;		/* per bank, while loading the model */
	bool loading;
	/* Kept by the DMA (dma.c): per bank, rowTasks scheduled and not yet
	 * sent; per list [2 * bank + write], rowTasks in it. */
	const int *scheduled;
	const int *pending;
};

/* The services plugins receive (host->dram). */
extern const struct dlasim_dram_services nna_dram_services;

bool nna_dram_ops_check(const void *ops, const char **why);

int nna_dram_init(struct dlasim_dram_ctx *c, const struct dlasim_dram_geometry *g,
		  const struct dl_plugin *plugin, long ndtiles);
void nna_dram_free(struct dlasim_dram_ctx *c);

/* Give DTile `d` its extents through the plugin and check them; on a
 * wrong answer, one message naming the plugin and -1. */
int nna_dram_place(struct dlasim_dram_ctx *c, long d, const struct dlasim_dtile *t);
/* The DTile's data is dead: tell the plugin and free its blocks. */
void nna_dram_release(struct dlasim_dram_ctx *c, long d, const struct dlasim_dtile *t);

static inline bool nna_dram_placed(const struct dlasim_dram_ctx *c, long d)
{
	return c->first[d] >= 0;
}

/* Flat bank number of an extent. */
static inline int nna_dram_bank(const struct dlasim_dram_ctx *c, const struct dlasim_dram_extent *e)
{
	return (e->ch * c->g.ranks + e->rk) * c->g.banks + e->bank;
}

/* The runs of blocks [b0, b1) of DTile d (counted from its start) as
 * extents, in order: calls fn for each. */
typedef void (*nna_extent_fn)(const struct dlasim_dram_extent *e, void *arg);
void nna_dram_blocks(const struct dlasim_dram_ctx *c, long d, long b0, long b1, nna_extent_fn fn,
		     void *arg);

/* Number of the rows a bank has with live data, for reports. */
long nna_dram_rows_used(const struct dlasim_dram_ctx *c);

#endif
