/* SPDX-License-Identifier: MIT */
/* The DMA engine's request order (docs/nna.md, "Issue order"). */
#include "dma.h"

#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "machine/engine.h"

int nna_dma_init(struct nna_dma *d, struct dlasim_dram_ctx *dram, int burst)
{
	memset(d, 0, sizeof(*d));
	d->dram = dram;
	d->nbanks = dram->nbanks;
	d->burst = burst;
	d->list = calloc(2 * (size_t)d->nbanks, sizeof(*d->list));
	d->pending = calloc(2 * (size_t)d->nbanks, sizeof(*d->pending));
	d->scheduled = calloc((size_t)d->nbanks, sizeof(*d->scheduled));
	if (!d->list || !d->pending || !d->scheduled) {
		nna_dma_free(d);
		return dl_err("out of memory");
	}
	dram->scheduled = d->scheduled;
	dram->pending = d->pending;
	return 0;
}

void nna_dma_free(struct nna_dma *d)
{
	if (d->dram) {
		((struct dlasim_dram_ctx *)d->dram)->scheduled = NULL;
		((struct dlasim_dram_ctx *)d->dram)->pending = NULL;
	}
	free(d->list);
	free(d->pending);
	free(d->scheduled);
	memset(d, 0, sizeof(*d));
}

/* ---- building transfers ---- */

void nna_xfer_init(struct nna_xfer *x, bool write)
{
	memset(x, 0, sizeof(*x));
	x->write = write;
}

void nna_xfer_free(struct nna_xfer *x)
{
	free(x->rt);
	free(x->active);
	x->rt = NULL;
	x->active = NULL;
}

int nna_xfer_add_rowtask(struct nna_xfer *x, int bank, int row, int col, int blocks)
{
	if (x->nrt == x->cap) {
		int cap = x->cap ? 2 * x->cap : 8;
		struct nna_rowtask *grown = realloc(x->rt, (size_t)cap * sizeof(*grown));

		if (!grown)
			return dl_err("out of memory");
		x->rt = grown;
		x->cap = cap;
	}
	x->rt[x->nrt++] = (struct nna_rowtask){ .bank = bank, .row = row, .col = col,
						.blocks = blocks, .x = x, .next_same_bank = -1 };
	x->blocks += blocks;
	return 0;
}

struct adder {
	struct nna_xfer *x;
	const struct dlasim_dram_ctx *dram;
	int failed;
};

static void add_extent(const struct dlasim_dram_extent *e, void *arg)
{
	struct adder *a = arg;

	if (!a->failed)
		a->failed = nna_xfer_add_rowtask(a->x, nna_dram_bank(a->dram, e), e->row, e->col,
						 e->blocks);
}

int nna_xfer_add(struct nna_xfer *x, const struct nna_dma *d, long dtile, long b0, long b1)
{
	struct adder a = { x, d->dram, 0 };

	nna_dram_blocks(d->dram, dtile, b0, b1, add_extent, &a);
	return a.failed;
}

/* ---- the lists ---- */

static void list_append(struct nna_dma *d, struct nna_rowtask *rt, bool write)
{
	struct nna_bank_list *l = &d->list[2 * rt->bank + write];

	rt->prev = l->tail;
	rt->next = NULL;
	if (l->tail)
		l->tail->next = rt;
	else
		l->head = rt;
	l->tail = rt;
	d->pending[2 * rt->bank + write]++;
	d->scheduled[rt->bank]++;
}

static void list_remove(struct nna_dma *d, struct nna_rowtask *rt, bool write)
{
	struct nna_bank_list *l = &d->list[2 * rt->bank + write];

	if (rt->prev)
		rt->prev->next = rt->next;
	else
		l->head = rt->next;
	if (rt->next)
		rt->next->prev = rt->prev;
	else
		l->tail = rt->prev;
	d->pending[2 * rt->bank + write]--;
	d->scheduled[rt->bank]--;
}

static void ring_insert(struct nna_dma *d, struct nna_xfer *x)
{
	if (!d->ring) {
		x->ring_prev = x->ring_next = x;
		d->ring = x;
		return;
	}
	/* Last in turn: just before the transfer whose turn it is. */
	x->ring_next = d->ring;
	x->ring_prev = d->ring->ring_prev;
	x->ring_prev->ring_next = x;
	d->ring->ring_prev = x;
}

static void ring_remove(struct nna_dma *d, struct nna_xfer *x)
{
	if (x->ring_next == x) {
		d->ring = NULL;
	} else {
		x->ring_prev->ring_next = x->ring_next;
		x->ring_next->ring_prev = x->ring_prev;
		if (d->ring == x)
			d->ring = x->ring_next;
	}
	x->ring_next = x->ring_prev = NULL;
}

/* The first rowTask on each bank, in the order the banks first appear,
 * with each rowTask linked to the next of its bank. */
static int set_active(struct nna_xfer *x)
{
	int *last = malloc((size_t)x->nrt * sizeof(*last));

	x->active = malloc((size_t)x->nrt * sizeof(*x->active));
	if (!last || !x->active) {
		free(last);
		return dl_err("out of memory");
	}
	x->nactive = 0;
	for (int i = 0; i < x->nrt; i++) {
		int j;

		for (j = 0; j < x->nactive; j++)
			if (x->rt[last[j]].bank == x->rt[i].bank)
				break;
		if (j == x->nactive) {
			x->active[x->nactive] = i;
			last[x->nactive++] = i;
		} else {
			x->rt[last[j]].next_same_bank = i;
			last[j] = i;
		}
	}
	free(last);
	return 0;
}

void nna_dma_submit(struct nna_dma *d, struct nna_xfer *x)
{
	if (x->nrt == 0) {
		x->on_done(x);
		return;
	}
	if (!d->dram->ops.next_bank && set_active(x))
		dl_sim_fail();
	for (int i = 0; i < x->nrt; i++)
		list_append(d, &x->rt[i], x->write);
	d->unsent += x->blocks;
	ring_insert(d, x);
}

/* ---- choosing the next request ---- */

static void take(struct nna_dma *d, struct nna_rowtask *rt, struct nna_req *r)
{
	struct nna_xfer *x = rt->x;
	int n = rt->blocks - rt->sent;

	if (n > d->burst)
		n = d->burst;
	*r = (struct nna_req){ rt, rt->bank, rt->row, rt->col + rt->sent, n, x->write };
	rt->sent += n;
	x->sent += n;
	d->unsent -= n;
	if (rt->sent == rt->blocks)
		list_remove(d, rt, x->write);
	if (x->sent == x->blocks)
		ring_remove(d, x);
}

/* Default order: the transfer whose turn it is sends from the bank whose
 * turn it is, then both turns move on. */
static void next_default(struct nna_dma *d, struct nna_req *r)
{
	struct nna_xfer *x = d->ring;
	struct nna_rowtask *rt = &x->rt[x->active[x->turn]];

	d->ring = x->ring_next;
	take(d, rt, r);
	if (rt->sent < rt->blocks) {
		x->turn++;
	} else if (rt->next_same_bank >= 0) {
		x->active[x->turn++] = rt->next_same_bank;
	} else {
		memmove(x->active + x->turn, x->active + x->turn + 1,
			(size_t)(x->nactive - x->turn - 1) * sizeof(*x->active));
		x->nactive--;
	}
	if (x->turn >= x->nactive)
		x->turn = 0;
}

int nna_dma_next(struct nna_dma *d, struct nna_req *r)
{
	struct dlasim_dram_ctx *dram = (struct dlasim_dram_ctx *)d->dram;
	struct dlasim_dram_pick pick;
	const struct dlasim_dram_geometry *g = &dram->g;
	int b;

	if (!dram->ops.next_bank) {
		next_default(d, r);
		return 0;
	}
	memset(&pick, 0, sizeof(pick));
	if (dram->ops.next_bank(dram->plugin->state, dram, &pick) != DLASIM_OK)
		return dl_plugin_err(dram->plugin, "", "next_bank() failed");
	if (pick.ch < 0 || pick.ch >= g->channels || pick.rk < 0 || pick.rk >= g->ranks ||
	    pick.bank < 0 || pick.bank >= g->banks)
		return dl_plugin_err(dram->plugin, "", "next_bank() picked ch %d rk %d bank %d, outside the device",
				     pick.ch, pick.rk, pick.bank);
	b = (pick.ch * g->ranks + pick.rk) * g->banks + pick.bank;
	if (!d->list[2 * b + pick.write].head)
		return dl_plugin_err(dram->plugin, "", "next_bank() picked the empty %s list of ch %d rk %d bank %d",
				     pick.write ? "write" : "read", pick.ch, pick.rk, pick.bank);
	take(d, d->list[2 * b + pick.write].head, r);
	return 0;
}

void nna_dma_served(struct nna_rowtask *rt, int blocks)
{
	struct nna_xfer *x = rt->x;

	rt->done += blocks;
	x->done += blocks;
	if (x->done == x->blocks)
		x->on_done(x);
}
