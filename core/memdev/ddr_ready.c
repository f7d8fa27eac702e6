/* SPDX-License-Identifier: MIT */
/*
 * When each bank, bank group and rank of a DDR4 channel can take which
 * command (JEDEC timing, FR-FCFS offers, refresh): ddr.c's model.
 */
#include <stdlib.h>
#include <string.h>

#include "ddr_state.h"

/* ---- readiness ---- */


static int64_t faw_ok(const struct ddr *x, const struct rank *r)
{
	if (r->nfaw < 4 || !x->cfg->tFAW)
		return 0;
	return r->faw[r->ifaw] + x->cfg->tFAW;	/* the oldest of the four */
}

/* The rank's part of the earliest ACT, kept with every activation. */
void md_ddr_rank_act_at(const struct ddr *x, struct rank *r)
{
	r->act_at = max64(r->t.next_act, faw_ok(x, r));
}

static int64_t t_act(const struct ddr *x, const struct bank *b)
{
	const struct rank *r = &x->rank[b->rank];

	return max64(max64(b->next_act, x->bg[b->bg].next_act), r->act_at);
}

static int64_t t_rd(const struct ddr *x, const struct bank *b)
{
	return max64(b->next_rd, max64(x->bg[b->bg].next_rd, x->rank[b->rank].t.next_rd));
}

static int64_t t_wr(const struct ddr *x, const struct bank *b)
{
	return max64(b->next_wr, max64(x->bg[b->bg].next_wr, x->rank[b->rank].t.next_wr));
}

/* The first hit of a direction in the queue from `from`, or -1. */
int md_ddr_first_hit(const struct bank *b, int from, bool write)
{
	for (int i = from; i < b->qn; i++)
		if (b->q[i].row == b->row && b->q[i].write == write)
			return i;
	return -1;
}

/* The first read and write hits, found again: the open row changed.  Adding
 * and removing requests keeps them as they go (move_one, remove_entry). */
void md_ddr_classify(struct bank *b)
{
	b->rd_hit = b->wr_hit = -1;
	if (b->row >= 0) {
		for (int i = 0; i < b->qn; i++) {
			if (b->q[i].row != b->row)
				continue;
			if (b->q[i].write) {
				if (b->wr_hit < 0)
					b->wr_hit = i;
			} else if (b->rd_hit < 0) {
				b->rd_hit = i;
			}
		}
	}
}

/* May the head's miss close the open row?  Not while hits wait behind it,
 * unless 4 hits were served since the activation (DRAMsim3). */
static bool precharge_allowed(const struct ddr *x, const struct bank *b)
{
	if (x->fcfs)
		return true;
	return (b->rd_hit < 0 && b->wr_hit < 0) || b->hits >= 4;
}

static void clean(struct ddr *x, struct bank *b)
{
	b->dirty = false;
	x->bg[b->bg].marked &= ~(1ULL << b->in_group);
}

/* The bank's own part of the earliest time of each command its queue can
 * offer; the bank group's and rank's parts are added by md_ddr_group_time(). */
static void bank_update(struct ddr *x, struct bank *b)
{
	clean(x, b);
	for (int k = 0; k < L_N; k++)
		b->loc[k] = MD_NEVER;
	if (!b->qn)
		return;
	if (b->row < 0) {
		b->loc[L_ACT] = b->next_act;
	} else if (x->fcfs) {
		if (b->q[0].row != b->row)
			b->loc[L_PRE] = b->next_pre;
		else if (b->q[0].write)
			b->loc[L_WR] = b->next_wr;
		else
			b->loc[L_RD] = b->next_rd;
	} else {
		if (b->q[0].row != b->row && precharge_allowed(x, b))
			b->loc[L_PRE] = b->next_pre;
		if (b->rd_hit >= 0)
			b->loc[L_RD] = b->next_rd;
		if (b->wr_hit >= 0)
			b->loc[L_WR] = b->next_wr;
	}
}

void md_ddr_set_ref_due(struct ddr *x, struct rank *r, bool due)
{
	if (r->ref_due != due)
		x->ref_pending += due ? 1 : -1;
	r->ref_due = due;
	x->it_valid = false;
}

/* (Scalars, not loops over L_N, and the dirty ones found by their bits,
 * not by testing each: these run at every step, and a branch taken at
 * random costs more than the loop.) */
static void group_update(struct ddr *x, struct timing_group *t)
{
	int64_t act = MD_NEVER, pre = MD_NEVER, rd = MD_NEVER, wr = MD_NEVER;
	struct bank *b = &x->bank[t->first], *end = b + x->bpg;

	while (t->marked)
		bank_update(x, &b[__builtin_ctzll(t->marked)]);
	for (; b < end; b++) {
		act = min64(act, b->loc[L_ACT]);
		pre = min64(pre, b->loc[L_PRE]);
		rd = min64(rd, b->loc[L_RD]);
		wr = min64(wr, b->loc[L_WR]);
	}
	t->at[L_ACT] = max64(act, t->next_act);
	t->at[L_PRE] = pre;
	t->at[L_RD] = max64(rd, t->next_rd);
	t->at[L_WR] = max64(wr, t->next_wr);
	t->dirty = false;
}

/* A group without queued requests has every `at` at MD_NEVER. */
static void rank_update(struct ddr *x, struct rank *r)
{
	int64_t act = MD_NEVER, pre = MD_NEVER, rd = MD_NEVER, wr = MD_NEVER;
	int g = r->t.first, end = g + x->bgpr;

	for (uint64_t m = r->t.marked; m; m &= m - 1) {
		struct timing_group *t = &x->bg[g + __builtin_ctzll(m)];

		if (t->dirty)
			group_update(x, t);
	}
	r->t.marked = 0;
	for (; g < end; g++) {
		const struct timing_group *t = &x->bg[g];
		bool q = x->group_queued[g];

		act = min64(act, q ? t->at[L_ACT] : MD_NEVER);
		pre = min64(pre, q ? t->at[L_PRE] : MD_NEVER);
		rd = min64(rd, q ? t->at[L_RD] : MD_NEVER);
		wr = min64(wr, q ? t->at[L_WR] : MD_NEVER);
	}
	r->t.at[L_ACT] = act;
	r->t.at[L_PRE] = pre;
	r->t.at[L_RD] = rd;
	r->t.at[L_WR] = wr;
	r->t.dirty = false;
}

/* The earliest of the commands `at` offers, under rank r's constraints:
 * min over banks of max(bank, group, rank parts) = max(min of the bank
 * parts, group part, rank part), the outer parts being common. */
static inline int64_t with_rank(const int64_t *at, const struct rank *r)
{
	int64_t act = max64(at[L_ACT], r->act_at);
	int64_t rd = max64(at[L_RD], r->t.next_rd);
	int64_t wr = max64(at[L_WR], r->t.next_wr);

	return min64(min64(act, at[L_PRE]), min64(rd, wr));
}

/* Earliest cycle any bank of group g (not refreshing) can take a command. */
int64_t md_ddr_group_time(struct ddr *x, int g)
{
	struct timing_group *t = &x->bg[g];
	const struct rank *r = &x->rank[t->rank];

	if (r->ref_due || !x->group_queued[g])
		return MD_NEVER;
	if (t->dirty)
		group_update(x, t);
	return with_rank(t->at, r);
}

/* The same for the whole rank: the least of its groups' times. */
static int64_t rank_time(struct ddr *x, struct rank *r)
{
	if (r->ref_due)
		return MD_NEVER;
	if (r->t.dirty)
		rank_update(x, r);
	return with_rank(r->t.at, r);
}

/* Earliest cycle any bank queue of the channel can take a command.  Every
 * command marks a bank, so that the value holds until the next md_ddr_mark(). */
int64_t md_ddr_issue_time(struct ddr *x)
{
	int64_t t = MD_NEVER;

	if (x->it_valid)
		return x->it;
	for (int rk = 0; rk < x->nrk; rk++)
		t = min64(t, rank_time(x, &x->rank[rk]));
	x->it = t;
	x->it_valid = true;
	return t;
}

/* The command the bank's queue offers at cycle e (C_NONE if none is ready)
 * and, with e = MD_NEVER, the earliest cycle it can offer one (*when). */
enum cmd md_ddr_queue_offer(struct ddr *x, struct bank *b, int64_t e, int *pos, int64_t *when)
{
	int64_t best = MD_NEVER, t;
	enum cmd what = C_NONE;
	int at = x->cqs;

	if (b->dirty)
		bank_update(x, b);
	if (b->row < 0) {
		*pos = 0;
		*when = t_act(x, b);
		return *when <= e ? C_ACT : C_NONE;
	}
	if (x->fcfs) {
		/* Only the head: its hit, or the precharge for its miss. */
		bool hit = b->q[0].row == b->row;

		t = !hit ? b->next_pre : b->q[0].write ? t_wr(x, b) : t_rd(x, b);
		*pos = 0;
		*when = t;
		return t > e ? C_NONE : !hit ? C_PRE : b->q[0].write ? C_WR : C_RD;
	}
	/* First ready in queue order: the precharge belongs to the head. */
	if (b->q[0].row != b->row && precharge_allowed(x, b)) {
		t = b->next_pre;
		best = t;
		if (t <= e) {
			what = C_PRE;
			at = 0;
		}
	}
	if (b->rd_hit >= 0) {
		t = t_rd(x, b);
		best = min64(best, t);
		if (t <= e && b->rd_hit < at) {
			what = C_RD;
			at = b->rd_hit;
		}
	}
	if (b->wr_hit >= 0) {
		t = t_wr(x, b);
		best = min64(best, t);
		if (t <= e && b->wr_hit < at) {
			what = C_WR;
			at = b->wr_hit;
		}
	}
	*pos = at;
	*when = best;
	return what;
}

/* A rank due for refresh: precharge its open banks, then refresh. */
enum cmd md_ddr_refresh_offer(struct ddr *x, int rk, int64_t e, int *bank, int64_t *when)
{
	int per = x->cfg->banks, first = rk * per;
	int64_t all_closed = 0, best = MD_NEVER;
	bool ready = false;

	for (int i = first; i < first + per; i++) {
		struct bank *b = &x->bank[i];

		if (b->row >= 0) {
			if (!ready && b->next_pre <= e)
				*bank = i;	/* the first open bank ready */
			ready |= b->next_pre <= e;
			best = min64(best, b->next_pre);
		} else {
			all_closed = max64(all_closed, b->next_act);
		}
	}
	if (best < MD_NEVER) {
		*when = best;
		return ready ? C_PRE : C_NONE;	/* some bank is open */
	}
	*bank = first;
	*when = all_closed;
	return all_closed <= e ? C_REF : C_NONE;
}
