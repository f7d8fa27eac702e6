/* SPDX-License-Identifier: MIT */
/*
 * The DMA engine's request order (docs/nna.md, "Issue order"), without
 * time: transfers of DTile pieces become rowTasks, the part of a transfer
 * in one row of one bank, kept in per-bank read and write lists; each
 * call of nna_dma_next() says which blocks go to the DRAM next.
 *
 * With the placement plugin's next_bank(), the plugin picks the bank and
 * list; the front rowTask of that list sends.  Without it, the transfers
 * in flight take turns, and each sends round-robin over the banks it
 * touches (its rowTasks on one bank one after the other).
 */
#ifndef NNA_DMA_H
#define NNA_DMA_H

#include <stdbool.h>

#include "dram.h"

struct nna_xfer;

struct nna_rowtask {
	int bank;			/* flat */
	int row, col, blocks;
	int sent, done;			/* blocks sent to / served by the DRAM */
	struct nna_xfer *x;
	int next_same_bank;		/* index in x->rt, -1 if none */
	struct nna_rowtask *prev, *next;	/* in its bank's list */
};

struct nna_xfer {
	bool write;
	struct nna_rowtask *rt;
	int nrt, cap;
	long blocks, sent, done;
	/* Default order: the rowTask each bank sends from, in turn. */
	int *active;
	int nactive, turn;
	struct nna_xfer *ring_prev, *ring_next;	/* transfers with blocks to send */
	void (*on_done)(struct nna_xfer *x);	/* when every block is served */
	void *arg;
};

/* The next blocks to send: `blocks` consecutive blocks of one row. */
struct nna_req {
	struct nna_rowtask *rt;
	int bank, row, col, blocks;
	bool write;
};

struct nna_dma {
	const struct dlasim_dram_ctx *dram;	/* geometry, plugin, extents */
	int nbanks;
	struct nna_bank_list {
		struct nna_rowtask *head, *tail;
	} *list;			/* [2 * bank + write] */
	int *pending;			/* rowTasks in each list */
	int *scheduled;			/* per bank: rowTasks not yet sent */
	struct nna_xfer *ring;		/* default order: whose turn it is */
	long unsent;			/* blocks submitted and not sent */
	int burst;			/* blocks sent per turn, at most */
};

int nna_dma_init(struct nna_dma *d, struct dlasim_dram_ctx *dram, int burst);
void nna_dma_free(struct nna_dma *d);

/* Building a transfer: blocks [b0, b1) of DTile `dtile`, then submit. */
void nna_xfer_init(struct nna_xfer *x, bool write);
int nna_xfer_add(struct nna_xfer *x, const struct nna_dma *d, long dtile, long b0, long b1);
/* One rowTask: `blocks` blocks from column `col` of a row of a bank. */
int nna_xfer_add_rowtask(struct nna_xfer *x, int bank, int row, int col, int blocks);
void nna_xfer_free(struct nna_xfer *x);
void nna_dma_submit(struct nna_dma *d, struct nna_xfer *x);

static inline bool nna_dma_idle(const struct nna_dma *d)
{
	return d->unsent == 0;
}

/* The next request (the DMA has blocks to send); -1 after reporting a
 * wrong answer of the plugin. */
int nna_dma_next(struct nna_dma *d, struct nna_req *r);
/* The DRAM served `blocks` of a request; calls the transfer's on_done
 * when it is complete. */
void nna_dma_served(struct nna_rowtask *rt, int blocks);


#endif
