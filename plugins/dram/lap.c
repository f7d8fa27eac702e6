/* SPDX-License-Identifier: MIT */
/*
 * LAP: load-aware placement of DTiles (dissertation Section 5.4).
 *
 * Algorithm 2, place(): a DTile is split into rowTasks of at most one
 * page (row_bytes), each given a free row of its own.  For each rowTask
 * the candidates are the banks holding the fewest rowTasks of this DTile
 * (SelfMin) that also have the fewest rowTasks scheduled (MemMin, counting
 * the rowTasks of this DTile placed so far, which are scheduled as they
 * are placed, Figure 5.8).  They are scanned bank -> rank -> channel,
 * channel innermost ("channel level parallelism" first), and the first
 * candidate with a free row takes the rowTask.  When no bank is in both
 * sets, the bank with the least (Self, scheduled) pair, in that order, is
 * taken: the pseudo-code leaves this case open (docs/nna.md).
 *
 * Algorithm 3, next_bank(): a pointer NextBkRkChToCheck; from it, banks
 * are scanned in (bank, rank, channel) order, channel fastest, wrapping
 * at the end to (0, 0, 0) (line 30); the first bank with a rowTask in its
 * read list, else in its write list (reads first), sends the next
 * request, and the pointer moves to the position after that bank.
 */
#include <stdlib.h>
#include <string.h>

#include <dlasim/dram_placement.h>

struct lap {
	const struct dlasim_dram_services *svc;
	const struct dlasim_host_api *host;
	int *self;		/* rowTasks of the DTile being placed, per bank */
	int *last_row;		/* the row its last rowTask on that bank took */
	int nbanks;		/* channels x ranks x banks */
	int next;		/* Algorithm 3's pointer, as a scan position */
};

static int refuse(char *err, size_t errlen, const char *why)
{
	if (errlen) {
		strncpy(err, why, errlen - 1);
		err[errlen - 1] = '\0';
	}
	return DLASIM_ERR;
}

static int init(const struct dlasim_host_api *host, const char *options, void **state,
		char *err, size_t errlen)
{
	struct lap *l;

	if (!DLASIM_HAS_MEMBER(host, struct dlasim_host_api, dram) || !host->dram)
		return refuse(err, errlen, "this dlasim has no DRAM placement services");
	if (options && *options)
		return refuse(err, errlen, "this plugin takes no options");
	l = calloc(1, sizeof(*l));
	if (!l)
		return refuse(err, errlen, "out of memory");
	l->svc = host->dram;
	l->host = host;
	*state = l;
	return DLASIM_OK;
}

static void fini(void *state)
{
	struct lap *l = state;

	if (l) {
		free(l->self);
		free(l->last_row);
	}
	free(l);
}

/* Scan position p (bank outermost, channel innermost) and back. */
static void position(const struct dlasim_dram_geometry *g, int p, int *ch, int *rk, int *bk)
{
	*ch = p % g->channels;
	*rk = p / g->channels % g->ranks;
	*bk = p / (g->channels * g->ranks);
}

static int get_self(struct lap *l, const struct dlasim_dram_geometry *g)
{
	int n = g->channels * g->ranks * g->banks;

	if (l->nbanks != n) {
		free(l->self);
		free(l->last_row);
		l->self = malloc((size_t)n * sizeof(*l->self));
		l->last_row = malloc((size_t)n * sizeof(*l->last_row));
		if (!l->self || !l->last_row)
			return DLASIM_ERR;
		l->nbanks = n;
	}
	memset(l->self, 0, (size_t)n * sizeof(*l->self));
	return DLASIM_OK;
}

/* Algorithm 2 for one rowTask: the scan position of its bank, -1 if every
 * bank is full.  full[p] marks banks found without a free row. */
static int choose_bank(struct lap *l, struct dlasim_dram_ctx *ctx,
		       const struct dlasim_dram_geometry *g, const bool *full, int *row)
{
	int self_min = -1, mem_min = -1, best = -1, best_self = 0, best_mem = 0;
	int ch, rk, bk;

	for (int p = 0; p < l->nbanks; p++) {
		if (full[p])
			continue;
		position(g, p, &ch, &rk, &bk);
		int mem = l->svc->scheduled(ctx, ch, rk, bk) + l->self[p];

		if (self_min < 0 || l->self[p] < self_min)
			self_min = l->self[p];
		if (mem_min < 0 || mem < mem_min)
			mem_min = mem;
		if (best < 0 || l->self[p] < best_self || (l->self[p] == best_self && mem < best_mem)) {
			best = p;
			best_self = l->self[p];
			best_mem = mem;
		}
	}
	for (int p = 0; p < l->nbanks; p++) {
		if (full[p] || l->self[p] != self_min)
			continue;
		position(g, p, &ch, &rk, &bk);
		if (l->svc->scheduled(ctx, ch, rk, bk) + l->self[p] == mem_min) {
			best = p;	/* SelfMin and MemMin: the first in scan order */
			break;
		}
	}
	if (best >= 0) {
		position(g, best, &ch, &rk, &bk);
		/* The host marks rows used once place() returns: skip those this
		 * DTile has taken already. */
		*row = l->svc->next_free_row(ctx, ch, rk, bk,
					     l->self[best] ? l->last_row[best] + 1 : 0);
	}
	return best;
}

static int place(void *state, struct dlasim_dram_ctx *ctx, const struct dlasim_dtile *t,
		 struct dlasim_dram_extent *ext, int max, int *n)
{
	struct lap *l = state;
	const struct dlasim_dram_geometry *g = l->svc->geometry(ctx);
	long left = t->blocks;
	bool *full;
	int ret = DLASIM_ERR;

	if (get_self(l, g) || !(full = calloc((size_t)l->nbanks, sizeof(*full))))
		return DLASIM_ERR;
	for (*n = 0; left > 0; (*n)++) {
		int row, p;

		while ((p = choose_bank(l, ctx, g, full, &row)) >= 0 && row < 0)
			full[p] = true;
		if (p < 0 || *n == max) {
			l->host->log(DLASIM_LOG_ERROR, "lap", "DTile %ld: %s", t->gid,
				     p < 0 ? "no bank has a free row left" : "too many rowTasks");
			goto out;
		}
		ext[*n] = (struct dlasim_dram_extent){ .row = row, .col = 0 };
		position(g, p, &ext[*n].ch, &ext[*n].rk, &ext[*n].bank);
		ext[*n].blocks = left < g->blocks_per_row ? (int)left : g->blocks_per_row;
		left -= ext[*n].blocks;
		l->self[p]++;
		l->last_row[p] = row;
	}
	ret = DLASIM_OK;
out:
	free(full);
	return ret;
}

/* Algorithm 3: the first bank from the pointer with a rowTask, reads first. */
static int next_bank(void *state, struct dlasim_dram_ctx *ctx, struct dlasim_dram_pick *pick)
{
	struct lap *l = state;
	const struct dlasim_dram_geometry *g = l->svc->geometry(ctx);
	int n = g->channels * g->ranks * g->banks;

	for (int i = 0; i < n; i++) {
		int p = (l->next + i) % n;

		position(g, p, &pick->ch, &pick->rk, &pick->bank);
		pick->write = false;
		if (l->svc->pending(ctx, pick->ch, pick->rk, pick->bank, false) == 0) {
			if (l->svc->pending(ctx, pick->ch, pick->rk, pick->bank, true) == 0)
				continue;
			pick->write = true;
		}
		l->next = (p + 1) % n;
		return DLASIM_OK;
	}
	return DLASIM_ERR;
}

static const struct dlasim_dram_ops ops = {
	.size = sizeof(ops),
	.flags = DLASIM_DRAM_ROW_PER_ROWTASK,
	.place = place,
	.next_bank = next_bank,
};

DLASIM_PLUGIN_EXPORT = {
	.abi_version = DLASIM_ABI_VERSION,
	.kind = DLASIM_KIND_DRAM_PLACEMENT,
	.ops_version = DLASIM_DRAM_OPS_VERSION,
	.name = "lap",
	.description = "load-aware placement: a row per rowTask on the least-loaded bank, channels first (LAP)",
	.init = init,
	.fini = fini,
	.ops = &ops,
};
