/* SPDX-License-Identifier: MIT */
/*
 * TM-Training's placement (Sections 3.2, 4.2, 4.3), offered to plugins as
 * tier services so that its variants (TM-Training, TM-Training_Off, the
 * ideal case) and Hor_Off share one implementation:
 *   - a tensor being written keeps its split ratio r in tier 1, the rest
 *     goes straight to tier 2 (Figure 7(b));
 *   - only essential data are promoted: of an op's operands, what tier 2
 *     cannot deliver in time, hot data first (re-read in every pass of
 *     the op, or read again soon); data read once are read where they are;
 *   - hot data in tier 1 that an op ahead needs are kept there (counted as
 *     promoted and unused, which the victims spare);
 *   - before an op, room is made for what it and the next op write to
 *     tier 1 (proactive eviction), through the plugin's victim().
 */

#include "place.h"

#include <math.h>
#include <stdbool.h>

#include "estimate.h"
#include "mem.h"
#include "tmgraph/npu.h"

#define EPS 1e-6	/* bytes */
#define PREFETCH_OPS 32	/* how far ahead promotions are planned */

static const struct dlasim_tier_tensor *T(const struct dlasim_tier_ctx *run, int id)
{
	return &run->g.t[id].pub;
}

/* The share of a tensor Algorithms 1 and 3 (or the oracle) need in tier 1:
 * all of it before its window is measured (Section 3.2, P=4). */
static double needed_share(const struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	double r = est_split_ratio(run, id, flags);

	return r < 0 ? 1 : r;
}

/*
 * A tensor goes to tier 1 as far as tier 1 has room for it, and at least
 * its needed share: only what tier 1 cannot hold is split off to tier 2.
 * Room is what is free now; with Belady's bypass, also what data read
 * after this tensor hold.
 */
double place_split(struct dlasim_tier_ctx *run, int id, unsigned flags)
{
	const struct dlasim_tier_tensor *t = T(run, id);
	double r = needed_share(run, id, flags), room;

	if (t->bytes <= 0 || t->first_use == DLASIM_TIER_NEVER)
		return r;
	room = mem_tier1_free(run);
	if (flags & DLASIM_TIER_BYPASS)
		room += mem_evictable_after(run, t->first_use);
	return fmax(r, fmin(1, room / t->bytes));
}

/* Passes of a tensor an op reads before it starts (the first) and while
 * it computes (the others), in tensor sizes. */
static void passes(const struct tg_op *o, int id, double *first, double *rest)
{
	*first = *rest = 0;
	for (int k = 0; k < o->pub.ninputs; k++) {
		if (o->in[k].tensor != id)
			continue;
		*first += o->in[k].fraction;
		*rest += o->in[k].fraction * (o->in[k].fetches - 1);
	}
}

/* Tier-2 bytes op `o` reads before it starts (*first) and while it
 * computes (*rest), as things stand. */
static void tier2_reads(const struct dlasim_tier_ctx *run, const struct tg_op *o,
			double *first, double *rest)
{
	*first = *rest = 0;
	for (int k = 0; k < o->pub.ninputs; k++) {
		const struct dlasim_tier_operand *in = &o->in[k];
		double t2 = T(run, in->tensor)->tier2_bytes;

		*first += t2 * in->fraction;
		*rest += t2 * in->fraction * (tg_tier2_fetches(o, in, t2) - 1);
	}
}

/* MXU time of op `op`: exact for the oracle (DLASIM_TIER_ORACLE), else as
 * the monitor measured the first op of its kind (0 before it has): a
 * policy that knows the op sequence still learns the times. */
static double mxu_time(const struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	if (op < 0)
		return 0;
	return fmax(0, est_op_time(run, op, flags & DLASIM_TIER_ORACLE));
}

/* What tier 2 cannot deliver of those in the op before it and in the op. */
static void excess(const struct dlasim_tier_ctx *run, const struct tg_op *o, unsigned flags,
		   double *first, double *rest)
{
	double bw2 = run->sys.tier2_read_bw_Bps;

	tier2_reads(run, o, first, rest);
	*first -= mxu_time(run, o->prev_mxu, flags) * bw2;
	*rest -= mxu_time(run, o->pub.index, flags) * bw2;
}

/* Hot: read again soon after op `op` (within PREFETCH_OPS ops); a policy
 * that sees only the present cannot tell. */
static bool hot(const struct dlasim_tier_ctx *run, int id, int op)
{
	int next;

	if (run->online)
		return false;
	next = tier_graph_next_use(&run->g, id, op);
	return next != DLASIM_TIER_NEVER && next - op <= PREFETCH_OPS;
}

/* The operand to promote first: of those whose tier-2 share is re-read in
 * every pass, the most often read, if the passes overflow; else the hot
 * one with the most tier-2 bytes (data read once and not again soon is
 * read where it is); -1 if none. */
static int pick(const struct dlasim_tier_ctx *run, const struct tg_op *o, bool rest_first)
{
	int best = -1;
	double best_v = 0;

	for (int k = 0; k < o->pub.ninputs; k++) {
		int id = o->in[k].tensor;
		double f, r, v;

		if (!T(run, id)->live || T(run, id)->tier2_bytes <= EPS)
			continue;
		if (rest_first ? tg_tier2_fetches(o, &o->in[k], T(run, id)->tier2_bytes) <= 1
			       : !hot(run, id, o->pub.index))
			continue;
		passes(o, id, &f, &r);
		v = rest_first ? r : T(run, id)->tier2_bytes * f;
		if (v > best_v) {
			best = id;
			best_v = v;
		}
	}
	return best;
}

/* Bytes of tensor `id` to promote against an excess: for the other passes,
 * down to a tier-2 share a core's SRAM holds (fetched once, then), at
 * most what the excess needs; for the first pass, the excess. */
static double promotion(const struct dlasim_tier_ctx *run, const struct tg_op *o, int id,
			double first, double rest)
{
	const struct dlasim_tier_tensor *t = T(run, id);
	double f, r, keep = t->tier2_bytes;

	passes(o, id, &f, &r);
	if (rest <= EPS)
		return fmin(keep, first / f);
	for (int k = 0; k < o->pub.ninputs; k++)
		if (o->in[k].tensor == id && o->in[k].fetches > 1)
			keep = fmin(keep, NPU_SRAM_PER_CORE * fmax(o->count, 1) /
					  o->in[k].fraction);
	return fmin(t->tier2_bytes, fmax(t->tier2_bytes - keep * (1 - 1e-9), rest / r));
}

double place_essential(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	const struct tg_op *o = &run->g.ops[op];
	double first, rest, moved = 0, room = INFINITY;

	/* Belady: room only from data read after this op. */
	if (flags & DLASIM_TIER_BYPASS)
		room = mem_tier1_free(run) + mem_evictable_after(run, op);
	for (;;) {
		int id;
		double x;

		excess(run, o, flags, &first, &rest);
		if (run->t2[op] >= 0)
			first = 0;	/* started: only the other passes are left */
		if ((first <= EPS && rest <= EPS) || room <= EPS)
			break;
		id = pick(run, o, rest > EPS);
		if (id < 0)
			break;
		x = mem_promote(run, id, fmin(promotion(run, o, id, first, rest), room),
				flags & DLASIM_TIER_WAIT);
		if (x <= EPS)
			break;
		moved += x;
		room -= x;
	}
	return moved;
}

/* Bytes op `op` must write to tier 1 (its results' needed shares). */
static double tier1_writes(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	const struct tg_op *o = &run->g.ops[op];
	double b = 0;

	for (int k = 0; k < o->pub.noutputs; k++)
		b += needed_share(run, o->out[k], flags) * T(run, o->out[k])->bytes;
	return b;
}

/* Flash read bytes the ops leave free while op k computes: its other
 * passes and the first pass of the op after it take theirs. */
static double flash_free(const struct dlasim_tier_ctx *run, int k, unsigned flags)
{
	double first = 0, rest, unused;

	tier2_reads(run, &run->g.ops[k], &unused, &rest);
	if (k + 1 < run->g.nops)
		tier2_reads(run, &run->g.ops[k + 1], &first, &unused);
	return fmax(0, mxu_time(run, k, flags) * run->sys.tier2_read_bw_Bps - rest - first);
}

/* Data op `o` re-reads in every pass that are in tier 1 stay there for it:
 * they count as promoted and not yet used, which the victims spare. */
static void keep_hot(struct dlasim_tier_ctx *run, const struct tg_op *o)
{
	for (int k = 0; k < o->pub.ninputs; k++) {
		struct dlasim_tier_tensor *t = &run->g.t[o->in[k].tensor].pub;

		if (o->in[k].fetches > 1 && t->live && t->tier1_bytes > EPS)
			t->promoted_unused = true;
	}
}

/* Tier-1 room the needed shares of what op and the next op write take. */
static double room_for_writes(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	double b = tier1_writes(run, op, flags);

	return op + 1 < run->g.nops ? b + tier1_writes(run, op + 1, flags) : b;
}

/*
 * Perfect prefetch, over the ops ahead (as many as the flash takes to fill
 * tier 1, at most PREFETCH_OPS): what an op re-reads in every pass is
 * promoted as soon as seen; what it reads once only when waiting for the
 * next call would leave the flash too little free time (twice the bytes)
 * to bring it before the op ahead starts.  Planning stops where the data
 * the victims spare would leave no room for the shares r of what op and
 * the next op write (Section 3.2 guarantees r; a promotion for an op ahead
 * is not worth a result split off to flash and read back in every pass).
 * A policy that sees only the present promotes for op itself and makes
 * room for what op writes.
 */
int place_prepare(struct dlasim_tier_ctx *run, int op, unsigned flags)
{
	double horizon = run->sys.tier1_capacity_bytes / run->sys.tier2_read_bw_Bps;
	double ahead = 0, later = 0, room;
	unsigned wait = flags & DLASIM_TIER_WAIT;

	if (run->online) {
		place_essential(run, op, wait);
		mem_make_room(run, tier1_writes(run, op, flags), wait);
		return DLASIM_OK;
	}
	room = run->sys.tier1_capacity_bytes - room_for_writes(run, op, flags);
	for (int j = op + 1; j < run->g.nops && j <= op + PREFETCH_OPS && ahead < horizon; j++) {
		double first, rest;

		if (mem_spared(run) >= room)
			break;
		if (j - 2 > op)
			later += flash_free(run, j - 2, flags);
		keep_hot(run, &run->g.ops[j]);
		excess(run, &run->g.ops[j], flags, &first, &rest);
		if (rest > EPS || (first > EPS && later < 2 * first))
			place_essential(run, j, flags & (DLASIM_TIER_ORACLE | DLASIM_TIER_BYPASS |
							 DLASIM_TIER_WAIT));
		ahead += mxu_time(run, j - 1, flags);
	}
	/* Proactive eviction; with Belady's bypass room is only taken from data
	 * read later, when a tensor is placed. */
	if (op + 1 < run->g.nops && !(flags & DLASIM_TIER_BYPASS))
		mem_make_room(run, room_for_writes(run, op, flags), wait);
	return DLASIM_OK;
}
