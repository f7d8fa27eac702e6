/* SPDX-License-Identifier: MIT */
/*
 * The floor of an iteration (docs/tier.md, "The floor").  Op a's slot is
 * the time from its start to the next op's; the MXUs run the ops one after
 * the other, so the slots follow each other and the iteration lasts at
 * least their sum.  A segment of slots a..q lasts at least the MXU time
 * of its ops, and at least the time its links take to carry what must
 * cross them between the start of op a and the start of op q + 1: the
 * data ops a+1..q read from flash because tier 1 could not hold them at
 * the start of op a, every byte those ops read off chip and the first
 * pass of op q + 1, the results written, the collectives those ops wait
 * for.  The best cut of the
 * sequence into segments is found by dynamic programming.
 */
#include "floor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "npu.h"

/* Per op: what must cross the links for it (prefix sums over the ops). */
struct crossing {
	double *mxu;	/* MXU time of ops < j */
	double *reads;	/* off-chip reads of ops < j, first passes included */
	double *first;	/* of op j: its first pass */
	double *stream;	/* of op j: its other passes, less what SRAM saves */
	double *writes;	/* results of the ops < j the MXUs wrote */
	double *coll;	/* of op j: the bytes of its collective (collective()) */
	int *coll_at;	/* ... counted at that op */
	int *written;	/* the last op whose results have left when op j starts,
			 * or an op before it (at most j - 1, -1 if none) */
};

/* Bytes of `tensor` op `op` reads (a part of it for a lookup). */
static double demand(const struct tier_graph *g, int tensor, int op)
{
	const struct tg_op *o = &g->ops[op];
	double f = 0;

	for (int k = 0; k < o->pub.ninputs; k++)
		if (o->in[k].tensor == tensor)
			f = fmax(f, o->in[k].fraction);
	return f * g->t[tensor].pub.bytes;
}

/* The last op whose results have all been written when op a starts: the
 * MXUs' two output buffers make op a wait for the op two before it
 * (core/tier/chip.c); -1 if none (a collective waits for nothing). */
static int settled(const struct tier_graph *g, int a)
{
	const struct tg_op *o = &g->ops[a];

	if (o->network || o->prev_mxu < 0)
		return -1;
	return g->ops[o->prev_mxu].prev_mxu;
}

/* Whether tensor i is in memory, written, when an op starts whose last
 * settled op is `last`. */
static bool settled_by(const struct tier_graph *g, int i, int last)
{
	int p = g->t[i].pub.producer;

	return p >= 0 && p <= last && !g->ops[p].network;
}

/* From the start of op a: at[q] = what op q > a reads of the settled
 * data at their next read; returns the settled data still to be read. */
static double settled_reads(const struct tier_graph *g, int a, double *at)
{
	int last = settled(g, a);
	double live = 0;

	memset(at + a, 0, (size_t)(g->nops - a) * sizeof(*at));
	for (int i = 0; last >= 0 && i < g->nt; i++) {
		int u;

		if (!settled_by(g, i, last))
			continue;
		u = tier_graph_next_use(g, i, a);
		if (u == DLASIM_TIER_NEVER)
			continue;
		at[u] += demand(g, i, u);
		live += g->t[i].pub.bytes;
	}
	return live;
}

/* Op c's collective, if it is one whose results an op reads: the bytes
 * it receives, counted at the later of c and its first reader (*at);
 * 0 otherwise. */
static double collective(const struct tier_graph *g, int c, int *at)
{
	const struct tg_op *o = &g->ops[c];
	int r = DLASIM_TIER_NEVER;

	if (!o->network)
		return 0;
	for (int k = 0; k < o->pub.noutputs; k++) {
		int u = g->t[o->out[k]].pub.first_use;

		if (u != DLASIM_TIER_NEVER && (r == DLASIM_TIER_NEVER || u < r))
			r = u;
	}
	if (r == DLASIM_TIER_NEVER)
		return 0;
	*at = r > c ? r : c;
	return o->pub.network_bytes;
}

/* From the start of op a: net[q] = the bytes of the collectives from op a
 * on whose results ops up to q wait for (coll[c], counted at coll_at[c]). */
static void network_reads(const struct tier_graph *g, int a, const double *coll,
			  const int *coll_at, double *net)
{
	memset(net + a, 0, (size_t)(g->nops - a) * sizeof(*net));
	for (int c = a; c < g->nops; c++)
		if (coll[c] > 0)
			net[coll_at[c]] += coll[c];
}

/* Off-chip reads of op j's operand k a tier-2 block no larger than SRAM
 * saves: it is fetched once instead of in every pass (npu_share_fetches). */
static double saving(const struct tier_graph *g, const struct tg_op *o, int k)
{
	const struct dlasim_tier_operand *in = &o->in[k];
	double count = o->count > 0 ? o->count : 1;

	if (in->fetches <= 1)
		return 0;
	return (in->fetches - 1) *
	       fmin(g->t[in->tensor].pub.bytes * in->fraction, NPU_SRAM_PER_CORE * count);
}

static double op_saving(const struct tier_graph *g, const struct tg_op *o)
{
	double s = 0;

	for (int k = 0; k < o->pub.ninputs; k++)
		s += saving(g, o, k);
	return s;
}

static int crossing_init(struct crossing *x, const struct tier_graph *g, double *saved)
{
	size_t n = (size_t)g->nops + 1;

	x->mxu = calloc(n, sizeof(double));
	x->reads = calloc(n, sizeof(double));
	x->first = calloc(n, sizeof(double));
	x->stream = calloc(n, sizeof(double));
	x->writes = calloc(n, sizeof(double));
	x->written = calloc(n, sizeof(int));
	x->coll = calloc(n, sizeof(double));
	x->coll_at = calloc(n, sizeof(int));
	if (!x->mxu || !x->reads || !x->first || !x->stream || !x->writes || !x->written ||
	    !x->coll || !x->coll_at)
		return -1;
	*saved = 0;
	for (int j = 0; j < g->nops; j++) {
		const struct tg_op *o = &g->ops[j];
		double s = op_saving(g, o);

		*saved += s;
		x->mxu[j + 1] = x->mxu[j] + o->pub.compute_s;
		x->reads[j + 1] = x->reads[j] + o->pass_bytes + o->stream_bytes - s;
		x->coll[j] = collective(g, j, &x->coll_at[j]);
		x->first[j] = o->pass_bytes;
		x->stream[j] = o->stream_bytes - s;
		x->writes[j + 1] = x->writes[j] + (o->network ? 0 : o->out_bytes);
		x->written[j] = j > 0 ? x->written[j - 1] : -1;
		if (settled(g, j) > x->written[j])
			x->written[j] = settled(g, j);
	}
	return 0;
}

static void crossing_free(struct crossing *x)
{
	free(x->mxu);
	free(x->reads);
	free(x->first);
	free(x->stream);
	free(x->writes);
	free(x->written);
	free(x->coll);
	free(x->coll_at);
}

/* Bytes through tier 1's link or the flash's from the start of op a to the
 * start of op q + 1: the reads of ops a+1..q, op a's other passes, the
 * first pass of op q + 1 (fetched from the start of op q), the results of
 * ops from a on written by the start of op q (at least). */
static double offchip(const struct crossing *x, int a, int q, int n)
{
	int w = x->written[q];

	return x->reads[q + 1] - x->reads[a + 1] + x->stream[a] +
	       (q + 1 < n ? x->first[q + 1] : 0) +
	       (w >= a ? x->writes[w + 1] - x->writes[a] : 0);
}

int tier_graph_floor(const struct tier_graph *g, double tier1_bytes, const struct tg_links *l,
		     struct tg_floor *f)
{
	size_t n = g->nops > 0 ? (size_t)g->nops : 1;
	double *time = calloc(n + 1, sizeof(double)), *reads = calloc(n + 1, sizeof(double));
	double *at = calloc(n, sizeof(double)), *net = calloc(n, sizeof(double));
	double links = l->tier1_Bps + l->flash_read_Bps + l->flash_write_Bps;
	struct crossing x = { 0 };
	int ret = -1;

	memset(f, 0, sizeof(*f));
	if (!time || !reads || !at || !net || crossing_init(&x, g, &f->pass_saving_bytes))
		goto out;
	/* time[a], reads[a]: the most the segments before op a can claim. */
	for (int a = 0; a < g->nops; a++) {
		double live = settled_reads(g, a, at), due = 0, coll = 0;

		network_reads(g, a, x.coll, x.coll_at, net);
		f->flash_write_bytes = fmax(f->flash_write_bytes, live - tier1_bytes);
		for (int q = a; q < g->nops; q++) {
			double flash, t;

			due += at[q];
			coll += net[q];
			flash = fmax(0, due - tier1_bytes);
			t = fmax(x.mxu[q + 1] - x.mxu[a], flash / l->flash_read_Bps);
			t = fmax(t, fmax(offchip(&x, a, q, g->nops) / links,
					 coll / l->network_Bps));
			time[q + 1] = fmax(time[q + 1], time[a] + t);
			reads[q + 1] = fmax(reads[q + 1], reads[a] + flash);
		}
	}
	f->time_s = time[g->nops];
	f->flash_read_bytes = reads[g->nops];
	ret = 0;
out:
	crossing_free(&x);
	free(time);
	free(reads);
	free(at);
	free(net);
	return ret;
}
