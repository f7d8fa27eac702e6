/* SPDX-License-Identifier: MIT */
/* The DRAM placement plugin's host: occupancy, services, checks. */
#include "dram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

/* ---- occupancy ---- */

static long row_index(const struct dlasim_dram_ctx *c, int bank, int row)
{
	return (long)bank * c->g.rows + row;
}

static bool block_used(const struct dlasim_dram_ctx *c, long r, int col)
{
	return c->bits[r * c->words + col / 64] >> (col % 64) & 1;
}

static void mark(struct dlasim_dram_ctx *c, const struct dlasim_dram_extent *e, bool used)
{
	int bank = nna_dram_bank(c, e);
	long r = row_index(c, bank, e->row);

	for (int col = e->col; col < e->col + e->blocks; col++) {
		if (used)
			c->bits[r * c->words + col / 64] |= 1ull << (col % 64);
		else
			c->bits[r * c->words + col / 64] &= ~(1ull << (col % 64));
	}
	c->used[r] = (uint16_t)(c->used[r] + (used ? e->blocks : -e->blocks));
	if (!used && c->used[r] == 0 && e->row < c->hint[bank])
		c->hint[bank] = e->row;
}

static bool inside(const struct dlasim_dram_ctx *c, const struct dlasim_dram_extent *e)
{
	const struct dlasim_dram_geometry *g = &c->g;

	return e->ch >= 0 && e->ch < g->channels && e->rk >= 0 && e->rk < g->ranks &&
	       e->bank >= 0 && e->bank < g->banks && e->row >= 0 && e->row < g->rows &&
	       e->col >= 0 && e->blocks > 0 && e->col <= g->blocks_per_row - e->blocks;
}

static bool extent_free(const struct dlasim_dram_ctx *c, const struct dlasim_dram_extent *e)
{
	long r = row_index(c, nna_dram_bank(c, e), e->row);

	if (c->used[r] == 0)
		return true;
	for (int col = e->col; col < e->col + e->blocks; col++)
		if (block_used(c, r, col))
			return false;
	return true;
}

/* ---- services ---- */

static const struct dlasim_dram_geometry *svc_geometry(const struct dlasim_dram_ctx *c)
{
	return &c->g;
}

static int flat_bank(const struct dlasim_dram_ctx *c, int ch, int rk, int bank)
{
	if (ch < 0 || ch >= c->g.channels || rk < 0 || rk >= c->g.ranks || bank < 0 ||
	    bank >= c->g.banks)
		return -1;
	return (ch * c->g.ranks + rk) * c->g.banks + bank;
}

static int svc_scheduled(const struct dlasim_dram_ctx *c, int ch, int rk, int bank)
{
	int b = flat_bank(c, ch, rk, bank);

	if (b < 0)
		return 0;
	return c->loading ? c->load_scheduled[b] : c->scheduled ? c->scheduled[b] : 0;
}

static int svc_pending(const struct dlasim_dram_ctx *c, int ch, int rk, int bank, bool write)
{
	int b = flat_bank(c, ch, rk, bank);

	return b < 0 || c->loading || !c->pending ? 0 : c->pending[2 * b + write];
}

static int svc_next_free_row(const struct dlasim_dram_ctx *c, int ch, int rk, int bank, int from)
{
	int b = flat_bank(c, ch, rk, bank);

	if (b < 0)
		return -1;
	/* No row below the hint is free: start there, and move it up to the
	 * first free row found from it. */
	bool from_hint = from <= c->hint[b];

	if (from_hint)
		from = c->hint[b];
	for (int row = from; row < c->g.rows; row++) {
		if (c->used[row_index(c, b, row)] == 0) {
			if (from_hint)
				c->hint[b] = row;
			return row;
		}
	}
	return -1;
}

static bool svc_is_free(const struct dlasim_dram_ctx *c, const struct dlasim_dram_extent *e)
{
	return e && inside(c, e) && extent_free(c, e);
}

const struct dlasim_dram_services nna_dram_services = {
	.size = sizeof(struct dlasim_dram_services),
	.geometry = svc_geometry,
	.scheduled = svc_scheduled,
	.pending = svc_pending,
	.next_free_row = svc_next_free_row,
	.is_free = svc_is_free,
};

bool nna_dram_ops_check(const void *p, const char **why)
{
	const struct dlasim_dram_ops *ops = p;

	if (ops->size < offsetof(struct dlasim_dram_ops, place) + sizeof(ops->place) || !ops->place) {
		*why = "place() is missing";
		return false;
	}
	return true;
}

/* ---- setting up ---- */

int nna_dram_init(struct dlasim_dram_ctx *c, const struct dlasim_dram_geometry *g,
		  const struct dl_plugin *plugin, long ndtiles)
{
	const struct dlasim_dram_ops *ops = plugin->desc->ops;
	long rows;

	memset(c, 0, sizeof(*c));
	c->g = *g;
	c->plugin = plugin;
	memcpy(&c->ops, ops, ops->size < sizeof(c->ops) ? ops->size : sizeof(c->ops));
	c->nbanks = g->channels * g->ranks * g->banks;
	c->words = (g->blocks_per_row + 63) / 64;
	rows = (long)c->nbanks * g->rows;
	c->used = calloc((size_t)rows, sizeof(*c->used));
	c->bits = calloc((size_t)rows * (size_t)c->words, sizeof(*c->bits));
	c->hint = calloc((size_t)c->nbanks, sizeof(*c->hint));
	c->load_scheduled = calloc((size_t)c->nbanks, sizeof(*c->load_scheduled));
	c->first = malloc((size_t)ndtiles * sizeof(*c->first));
	c->count = calloc((size_t)ndtiles, sizeof(*c->count));
	if (!c->used || !c->bits || !c->hint || !c->load_scheduled || !c->first || !c->count) {
		nna_dram_free(c);
		return dl_err("out of memory");
	}
	for (long d = 0; d < ndtiles; d++)
		c->first[d] = -1;
	return 0;
}

void nna_dram_free(struct dlasim_dram_ctx *c)
{
	free(c->used);
	free(c->bits);
	free(c->hint);
	free(c->load_scheduled);
	free(c->first);
	free(c->count);
	free(c->ext);
	free(c->answer);
	memset(c, 0, sizeof(*c));
}

/* ---- placing ---- */

static int check_answer(struct dlasim_dram_ctx *c, const struct dlasim_dtile *t, int n, char *why,
			size_t len)
{
	const struct dlasim_dram_extent *a = c->answer;
	bool own_rows = c->ops.flags & DLASIM_DRAM_ROW_PER_ROWTASK;
	long blocks = 0;
	int i;

	if (n < 1 || n > c->answer_max)
		return snprintf(why, len, "%d extents (expected 1 to %d)", n, c->answer_max), -1;
	for (i = 0; i < n; i++) {
		const struct dlasim_dram_extent *e = &a[i];

		if (!inside(c, e)) {
			snprintf(why, len, "extent %d (ch %d rk %d bank %d row %d col %d, %d blocks) is outside the device",
				 i, e->ch, e->rk, e->bank, e->row, e->col, e->blocks);
			break;
		}
		if (own_rows && (e->col != 0 || c->used[row_index(c, nna_dram_bank(c, e), e->row)] ||
				 e->blocks != (t->blocks - blocks < c->g.blocks_per_row ?
					       t->blocks - blocks : c->g.blocks_per_row))) {
			snprintf(why, len, "extent %d is not rowTask %d in a row of its own, as the plugin declares",
				 i, i);
			break;
		}
		if (!extent_free(c, e)) {
			snprintf(why, len, "extent %d (ch %d rk %d bank %d row %d col %d, %d blocks) overlaps live data or another extent",
				 i, e->ch, e->rk, e->bank, e->row, e->col, e->blocks);
			break;
		}
		mark(c, e, true);
		blocks += e->blocks;
	}
	if (i == n && blocks != t->blocks) {
		snprintf(why, len, "the extents hold %ld blocks, the DTile has %ld", blocks, t->blocks);
		i = n - 1;
	} else if (i == n) {
		return 0;
	} else {
		i--;
	}
	for (; i >= 0; i--)	/* undo the marks */
		mark(c, &a[i], false);
	return -1;
}

static int keep_extents(struct dlasim_dram_ctx *c, long d, int n)
{
	if (c->next + n > c->cap) {
		long cap = c->cap ? 2 * c->cap : 4096;
		struct dlasim_dram_extent *grown;

		while (cap < c->next + n)
			cap *= 2;
		grown = realloc(c->ext, (size_t)cap * sizeof(*grown));
		if (!grown)
			return dl_err("out of memory");
		c->ext = grown;
		c->cap = cap;
	}
	memcpy(c->ext + c->next, c->answer, (size_t)n * sizeof(*c->answer));
	c->first[d] = c->next;
	c->count[d] = n;
	c->next += n;
	return 0;
}

int nna_dram_place(struct dlasim_dram_ctx *c, long d, const struct dlasim_dtile *t)
{
	int max = t->rowtasks + 64, n = 0;
	char why[256], where[64];

	if (max > c->answer_max) {
		free(c->answer);
		c->answer = malloc((size_t)max * sizeof(*c->answer));
		if (!c->answer)
			return dl_err("out of memory");
		c->answer_max = max;
	}
	snprintf(where, sizeof(where), ", DTile %ld", t->gid);
	if (c->ops.place(c->plugin->state, c, t, c->answer, c->answer_max, &n) != DLASIM_OK)
		return dl_plugin_err(c->plugin, where, "place() failed for %.0f bytes", t->bytes);
	if (check_answer(c, t, n, why, sizeof(why)))
		return dl_plugin_err(c->plugin, where, "%s", why);
	if (c->loading)
		for (int i = 0; i < n; i++)
			c->load_scheduled[nna_dram_bank(c, &c->answer[i])]++;
	return keep_extents(c, d, n);
}

void nna_dram_release(struct dlasim_dram_ctx *c, long d, const struct dlasim_dtile *t)
{
	const struct dlasim_dram_extent *e = c->ext + c->first[d];

	if (c->ops.size >= offsetof(struct dlasim_dram_ops, release) + sizeof(c->ops.release) &&
	    c->ops.release)
		c->ops.release(c->plugin->state, c, t, e, c->count[d]);
	for (int i = 0; i < c->count[d]; i++)
		mark(c, &e[i], false);
}

void nna_dram_blocks(const struct dlasim_dram_ctx *c, long d, long b0, long b1, nna_extent_fn fn,
		     void *arg)
{
	const struct dlasim_dram_extent *e = c->ext + c->first[d];
	long at = 0;

	for (int i = 0; i < c->count[d] && at < b1; i++) {
		long s = b0 > at ? b0 : at, t = b1 < at + e[i].blocks ? b1 : at + e[i].blocks;

		if (s < t) {
			struct dlasim_dram_extent run = e[i];

			run.col += (int)(s - at);
			run.blocks = (int)(t - s);
			fn(&run, arg);
		}
		at += e[i].blocks;
	}
}

long nna_dram_rows_used(const struct dlasim_dram_ctx *c)
{
	long n = 0, rows = (long)c->nbanks * c->g.rows;

	for (long r = 0; r < rows; r++)
		n += c->used[r] != 0;
	return n;
}
