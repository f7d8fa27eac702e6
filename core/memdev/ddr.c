/* SPDX-License-Identifier: MIT */
/*
 * One DDR4 channel: its controller and its ranks, following DRAMsim3's
 * controller (docs/memdev.md):
 *   - a read queue and a write buffer of trans_queue_size requests each;
 *     one request a cycle moves into its bank's command queue
 *     (cmd_queue_size entries), writes in drains (all of a full write
 *     buffer, or of more than write_buf_size once the command queues are
 *     empty);
 *   - one command a cycle on the command bus: a pending refresh first,
 *     otherwise the bank queues in round robin from the last one served,
 *     each offering its first command ready now in queue order (FR-FCFS):
 *     an open row's hits pass a miss at the head until 4 hits were served
 *     since the activation; under FCFS only the head is served;
 *   - JEDEC timing between commands of the same bank, bank group, rank and
 *     other ranks (tRCD, tRP, tRAS, tRC, tCCD_S/L, tRRD_S/L, tFAW, tWTR_S/L,
 *     tRTP, tWR, tRTRS, preambles), refresh every tREFI per rank.
 * A request of n blocks in one row is n column commands and one completion.
 * Time is in cycles; nothing here sleeps: memdev.c asks next() for the next
 * cycle with something to do and step()s to it.
 */
#include <stdlib.h>
#include <string.h>

#include "chan.h"

enum cmd { C_NONE, C_ACT, C_PRE, C_RD, C_WR, C_REF };

struct entry {			/* a request in a bank's command queue */
	struct memdev_req *r;
	long row;
	int col;		/* next block */
	unsigned left;		/* blocks still to issue */
	bool write;		/* r->write, here because queues are scanned often */
};

struct bank {
	long row;		/* open row, -1 when closed */
	int64_t next_act, next_pre, next_rd, next_wr;
	int hits;		/* column commands since the activation */
	int rank, bg;
	int in_group;		/* index among the banks of its group */
	struct entry *q;	/* command queue, oldest first: a window over qbuf */
	struct entry *qbuf;	/* twice cmd_queue_size entries (struct tqueue) */
	int qn;
	int rd_hit, wr_hit;	/* first read / write hit in the queue, -1 (kept current) */
	int64_t loc[4];		/* bank's own earliest ACT, PRE, RD, WR for its queue */
	bool dirty;		/* loc to recompute */
};

enum { L_ACT, L_PRE, L_RD, L_WR, L_N };

/*
 * Constraints shared by a bank group or a rank, and when their queues can
 * next take each command: for a bank group, the least of its banks' loc
 * raised to the group's own constraints; for a rank, the least of its
 * groups' `at`.  The rank's constraints are common to its groups and are
 * applied last (rank_time, group_time), so that a command, which moves
 * them, leaves `at` valid everywhere but in the group it was issued in.
 */
struct timing_group {
	int64_t next_act, next_rd, next_wr;
	int64_t at[L_N];
	bool dirty;		/* `at` to recompute */
	/* groups: their banks that are dirty (bit in_group); ranks: their
	 * groups marked since `at` was computed (bit g - first); a device has
	 * at most 64 of each (config.c) */
	uint64_t marked;
	uint64_t queued;	/* groups: their banks with requests queued */
	int rank, first;	/* groups: their rank, their first bank; ranks: first group */
};

struct rank {
	struct timing_group t;
	int64_t faw[4];		/* the last four activations */
	int nfaw, ifaw;
	int64_t act_at;		/* earliest ACT: tRRD_S and tFAW together */
	bool ref_due;
};

struct waiting {		/* a request in a transaction queue */
	struct memdev_req *r;
	int64_t arrive;		/* r->arrive_cyc */
	int bank;		/* its bank in the channel */
};

/*
 * The read queue or the write buffer, oldest first: v[0 .. n-1], a window
 * that slides along buf (twice the queue's size), so that taking the oldest
 * request (the usual one) moves nothing, and taking the i-th moves the
 * fewer of the requests before it and after it.
 */
struct tqueue {
	struct waiting *buf, *v;
	int n;
	int mv;			/* movable() of any cycle, if mv_valid */
	bool mv_valid;
	int *per_bank;		/* its requests for each bank */
};

struct done_slot {
	int64_t t;
	struct memdev_req *r;
};

struct ddr {
	const struct memdev_config *cfg;
	/* from cfg, here because the hot paths read them */
	int nb, nbg, nrk;
	int bpg, bgpr;		/* banks per group, groups per rank */
	int cqs, tqs, wbs;	/* cmd_queue_size, trans_queue_size, write_buf_size */
	bool fcfs;		/* sched == MEMDEV_FCFS */
	struct bank *bank;	/* rank-major, then bank group x banks_per_group */
	struct timing_group *bg;
	struct rank *rank;
	struct tqueue tq[2];	/* read queue, write buffer */
	int draining;
	int rr;			/* bank queue served last */
	int64_t next_ref;
	int ref_rank;
	int ref_pending;	/* ranks with ref_due */
	int64_t it;		/* issue_time(), if it_valid */
	bool it_valid;
	struct done_slot *heap;	/* completions by time */
	int hn, hcap;
	int64_t *idle_act;	/* banks' next_act at the start of an idle round */
	struct md_chan *ch;	/* its next_at, next_ok: ddr_next() */
	int queued;		/* entries in all command queues */
	int *group_queued;	/* entries in each bank group's command queues */
	/* derived delays (DRAMsim3's timing table) */
	int rtr_l, rtr_s, rtr_o, rtw, rtw_o, rtp, wtr_l, wtr_s, wtr_o, wtw_l, wtw_s, wtw_o;
	int wtp, rd_delay, wr_delay, rdp_act, wrp_act, ref_interval;
};

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static inline int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* ---- completions: a binary heap by time ---- */

static bool heap_push(struct ddr *x, int64_t t, struct memdev_req *r)
{
	int i;

	if (x->hn == x->hcap) {
		int cap = x->hcap ? 2 * x->hcap : 64;
		struct done_slot *h = realloc(x->heap, cap * sizeof(*h));

		if (!h)
			return false;
		x->heap = h;
		x->hcap = cap;
	}
	for (i = x->hn++; i > 0 && x->heap[(i - 1) / 2].t > t; i = (i - 1) / 2)
		x->heap[i] = x->heap[(i - 1) / 2];
	x->heap[i] = (struct done_slot){ t, r };
	return true;
}

static struct done_slot heap_pop(struct ddr *x)
{
	struct done_slot top = x->heap[0], last = x->heap[--x->hn];
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= x->hn)
			break;
		if (c + 1 < x->hn && x->heap[c + 1].t < x->heap[c].t)
			c++;
		if (x->heap[c].t >= last.t)
			break;
		x->heap[i] = x->heap[c];
		i = c;
	}
	if (x->hn)
		x->heap[i] = last;
	return top;
}

/* ---- set-up ---- */

static void derive(struct ddr *x)
{
	const struct memdev_config *c = x->cfg;
	int burst = c->BL / 2, rl = c->AL + c->CL, wl = c->AL + c->CWL;

	x->rd_delay = rl + burst;
	x->wr_delay = wl + burst;
	x->rtr_l = max64(burst, c->tCCD_L);
	x->rtr_s = max64(burst, c->tCCD_S);
	x->rtr_o = burst + c->tRTRS;
	x->rtw = rl + burst - wl + c->tRPRE + c->tRTRS;
	x->rtw_o = x->rd_delay + burst + c->tRTRS - x->wr_delay;
	x->rtp = c->AL + c->tRTP;
	x->wtr_l = x->wr_delay + c->tWTR_L;
	x->wtr_s = x->wr_delay + c->tWTR_S;
	x->wtr_o = x->wr_delay + burst + c->tRTRS - x->rd_delay;
	x->wtw_l = max64(burst, c->tCCD_L);
	x->wtw_s = max64(burst, c->tCCD_S);
	/* Writes to another rank follow at the burst's length: JESD79-4
	 * leaves rank-to-rank spacing to the vendor, and DRAMsim3 and
	 * Ramulator 2 add nothing (tWPRE is read, as by DRAMsim3, unused). */
	x->wtw_o = burst;
	x->wtp = wl + burst + c->tWR;
	x->rdp_act = c->AL + burst + c->tRTP + c->tRP;
	x->wrp_act = x->wtp + c->tRP;
	x->ref_interval = c->refresh == MEMDEV_REF_STAGGERED ? c->tREFI / c->ranks : c->tREFI;
}

/*
 * From the cycle D a refresh falls due, a rank takes no command but the
 * refresh's (docs/memdev.md, Refresh).  Bounds, with N the channel's banks
 * (the round robin serves each bank queue within N commands, and the
 * refresh's precharges go one a cycle):
 *   - the refresh starts by D + late, late the longest from a command
 *     before D to its bank's precharge (tRAS, a read's or a write's
 *     recovery), then tRP, then N precharges;
 *   - an activation may follow by D + max(late + tRFC, tRRD_L, tFAW)
 *     (the last activations came before D) and is issued N cycles later;
 *   - its column command tRCD after it, or the longest column-to-column
 *     delay after the last one before D, and N cycles later.
 * A tREFI past that lets each refresh interval serve a request.
 */
int md_ddr_refresh_need(const struct memdev_config *c)
{
	struct ddr x = { .cfg = c };
	int64_t n = (int64_t)c->ranks * c->banks, late, act, col;
	const int *d[] = { &x.rtr_l, &x.rtr_s, &x.rtr_o, &x.rtw, &x.rtw_o, &x.wtr_l, &x.wtr_s,
			   &x.wtr_o, &x.wtw_l, &x.wtw_s, &x.wtw_o };

	derive(&x);
	late = max64(max64(c->tRAS, x.rtp), x.wtp) + c->tRP + n;
	act = max64(max64(late + c->tRFC, c->tRRD_L), c->tFAW) + n;
	col = act + c->tRCD;
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		col = max64(col, *d[i]);
	col += n;
	return col > INT32_MAX ? INT32_MAX : (int)col;
}

static inline void mark(struct ddr *x, struct bank *b);

static void ddr_free(void *impl)
{
	struct ddr *x = impl;

	if (!x)
		return;
	if (x->bank)
		for (int i = 0; i < x->nb; i++)
			free(x->bank[i].qbuf);
	free(x->bank);
	free(x->bg);
	free(x->group_queued);
	free(x->rank);
	for (int w = 0; w < 2; w++) {
		free(x->tq[w].buf);
		free(x->tq[w].per_bank);
	}
	free(x->heap);
	free(x->idle_act);
	free(x);
}

static void *ddr_open(struct md_chan *ch)
{
	const struct memdev_config *c = &ch->d->cfg;
	struct ddr *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	if (c->banks_per_group > 64 || c->bankgroups > 64)
		goto fail;	/* the masks of struct timing_group; config.c allows 64 */
	x->cfg = c;
	x->ch = ch;
	x->nb = c->ranks * c->banks;
	x->nbg = c->ranks * c->bankgroups;
	x->nrk = c->ranks;
	x->bpg = c->banks_per_group;
	x->bgpr = c->bankgroups;
	x->cqs = c->cmd_queue_size;
	x->tqs = c->trans_queue_size;
	x->wbs = c->write_buf_size;
	x->fcfs = c->sched == MEMDEV_FCFS;
	x->bank = calloc(x->nb, sizeof(*x->bank));
	x->bg = calloc(x->nbg, sizeof(*x->bg));
	x->group_queued = calloc(x->nbg, sizeof(*x->group_queued));
	x->rank = calloc(c->ranks, sizeof(*x->rank));
	x->idle_act = calloc(x->nb, sizeof(*x->idle_act));
	if (!x->bank || !x->bg || !x->group_queued || !x->rank || !x->idle_act)
		goto fail;
	for (int w = 0; w < 2; w++) {
		x->tq[w].buf = calloc(2 * (size_t)c->trans_queue_size, sizeof(*x->tq[w].buf));
		x->tq[w].v = x->tq[w].buf;
		x->tq[w].per_bank = calloc(x->nb, sizeof(int));
		if (!x->tq[w].buf || !x->tq[w].per_bank)
			goto fail;
	}
	for (int i = 0; i < x->nb; i++) {
		struct bank *b = &x->bank[i];

		b->row = -1;
		b->rank = i / c->banks;
		b->bg = b->rank * c->bankgroups + (i % c->banks) / c->banks_per_group;
		b->in_group = i % c->banks_per_group;
		x->bg[b->bg].rank = b->rank;
		if (b->in_group == 0)
			x->bg[b->bg].first = i;
		b->rd_hit = b->wr_hit = -1;
		x->rank[b->rank].t.first = b->rank * c->bankgroups;
		mark(x, b);
		b->qbuf = calloc(2 * (size_t)c->cmd_queue_size, sizeof(*b->qbuf));
		b->q = b->qbuf;
		if (!b->qbuf)
			goto fail;
	}
	derive(x);
	/* The queue served last: DRAMsim3 starts looking at the one after 0. */
	x->rr = 0;
	x->next_ref = c->refresh == MEMDEV_REF_NONE || !c->tREFI ? MD_NEVER : x->ref_interval;
	return x;
fail:
	ddr_free(x);
	return NULL;
}

/* ---- readiness ---- */

/* A bank's state changed (and with it, maybe, its group's and rank's). */
static inline void mark(struct ddr *x, struct bank *b)
{
	struct timing_group *g = &x->bg[b->bg];
	struct rank *r = &x->rank[b->rank];

	b->dirty = true;
	g->marked |= 1ULL << b->in_group;
	g->dirty = true;
	r->t.marked |= 1ULL << (b->bg - r->t.first);
	r->t.dirty = true;
	x->it_valid = false;
}

static int64_t faw_ok(const struct ddr *x, const struct rank *r)
{
	if (r->nfaw < 4 || !x->cfg->tFAW)
		return 0;
	return r->faw[r->ifaw] + x->cfg->tFAW;	/* the oldest of the four */
}

/* The rank's part of the earliest ACT, kept with every activation. */
static void rank_act_at(const struct ddr *x, struct rank *r)
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
static int first_hit(const struct bank *b, int from, bool write)
{
	for (int i = from; i < b->qn; i++)
		if (b->q[i].row == b->row && b->q[i].write == write)
			return i;
	return -1;
}

/* The first read and write hits, found again: the open row changed.  Adding
 * and removing requests keeps them as they go (move_one, remove_entry). */
static void classify(struct bank *b)
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
 * offer; the bank group's and rank's parts are added by group_time(). */
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

static void set_ref_due(struct ddr *x, struct rank *r, bool due)
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
static inline int64_t group_time(struct ddr *x, int g)
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
 * command marks a bank, so that the value holds until the next mark(). */
static int64_t issue_time(struct ddr *x)
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
static enum cmd queue_offer(struct ddr *x, struct bank *b, int64_t e, int *pos, int64_t *when)
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
static enum cmd refresh_offer(struct ddr *x, int rk, int64_t e, int *bank, int64_t *when)
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

/* ---- moving requests into the command queues ---- */

static bool queue_has_columns(const struct ddr *x)
{
	return x->queued > 0;
}

/* DRAMsim3's write drain (a full write buffer, or more than write_buf_size
 * writes and empty command queues), plus: with nothing else to do, any
 * writes drain (DRAMsim3 acknowledges writes at once and may keep a few
 * forever; here a write completes when it is written). */
static bool drain_now(const struct ddr *x)
{
	int rn = x->tq[0].n, wn = x->tq[1].n;

	if (x->draining > 0)
		return true;
	if (wn >= x->tqs)
		return true;
	if (wn > 0 && !queue_has_columns(x) && (wn > x->wbs || rn == 0))
		return true;
	return false;
}

/* The first request of a transaction queue from index `from` whose bank
 * has room, or -1. */
static int first_with_room(const struct ddr *x, bool writes, int from)
{
	const struct tqueue *q = &x->tq[writes];

	for (int i = from; i < q->n; i++)
		if (x->bank[q->v[i].bank].qn < x->cqs)
			return i;
	return -1;
}

/* The request a move at cycle e would take: index in its queue, or -1.
 * Requests before the first one with room in its bank's queue stay,
 * whatever the cycle, so that one is cached. */
static inline int movable(struct ddr *x, int64_t e, bool writes)
{
	struct tqueue *q = &x->tq[writes];
	int i;

	if (!q->mv_valid) {
		q->mv = first_with_room(x, writes, 0);
		q->mv_valid = true;
	}
	i = q->mv;
	return i >= 0 && q->v[i].arrive <= e ? i : -1;
}

/* Bank `bank` has one more free entry: its first waiting request may now
 * come before the cached one. */
static void room_freed(struct ddr *x, int bank)
{
	for (int w = 0; w < 2; w++) {
		struct tqueue *q = &x->tq[w];
		int lim;

		if (!q->mv_valid || !q->per_bank[bank])
			continue;
		lim = q->mv < 0 ? q->n : q->mv;
		for (int i = 0; i < lim; i++) {
			if (q->v[i].bank == bank) {
				q->mv = i;
				break;
			}
		}
	}
}

static void move_one(struct ddr *x, int64_t e)
{
	bool writes = drain_now(x);
	struct tqueue *q = &x->tq[writes], *o = &x->tq[!writes];
	struct memdev_req *r;
	struct bank *b;
	int i;

	if (writes && x->draining == 0)
		x->draining = q->n;
	x->ch->next_ok = false;
	i = movable(x, e, writes);
	if (i < 0)
		return;
	r = q->v[i].r;
	b = &x->bank[q->v[i].bank];
	q->per_bank[q->v[i].bank]--;
	if (i < q->n - i - 1) {
		memmove(&q->v[1], &q->v[0], i * sizeof(*q->v));
		q->v++;
	} else {
		memmove(&q->v[i], &q->v[i + 1], (q->n - i - 1) * sizeof(*q->v));
	}
	q->n--;
	if (writes)
		x->draining--;
	if (b->q + b->qn == b->qbuf + 2 * x->cqs) {
		memmove(b->qbuf, b->q, b->qn * sizeof(*b->q));
		b->q = b->qbuf;
	}
	b->q[b->qn++] = (struct entry){ r, r->row, r->col, r->blocks ? r->blocks : 1, r->write };
	if (b->row >= 0 && r->row == b->row) {
		int *hit = r->write ? &b->wr_hit : &b->rd_hit;

		if (*hit < 0)
			*hit = b->qn - 1;
	}
	x->queued++;
	x->group_queued[b->bg]++;
	x->bg[b->bg].queued |= 1ULL << b->in_group;
	/* Requests before i had no room and still have none; the bank that
	 * took this one may now be full. */
	q->mv = first_with_room(x, writes, i);
	if (o->mv_valid && o->mv >= 0 && o->v[o->mv].bank == (int)(b - x->bank) &&
	    b->qn >= x->cqs)
		o->mv = first_with_room(x, !writes, o->mv);
	mark(x, b);
}

/* ---- issuing ---- */

static void remove_entry(struct ddr *x, struct bank *b, int pos)
{
	if (pos < b->qn - pos - 1) {
		memmove(&b->q[1], &b->q[0], pos * sizeof(*b->q));
		b->q++;
	} else {
		memmove(&b->q[pos], &b->q[pos + 1], (b->qn - pos - 1) * sizeof(*b->q));
	}
	b->qn--;
	if (b->rd_hit == pos)
		b->rd_hit = first_hit(b, pos, false);
	else if (b->rd_hit > pos)
		b->rd_hit--;
	if (b->wr_hit == pos)
		b->wr_hit = first_hit(b, pos, true);
	else if (b->wr_hit > pos)
		b->wr_hit--;
	x->queued--;
	x->group_queued[b->bg]--;
	if (!b->qn)
		x->bg[b->bg].queued &= ~(1ULL << b->in_group);
	room_freed(x, (int)(b - x->bank));
	mark(x, b);
}

static void column(struct ddr *x, struct md_chan *ch, struct bank *b, int pos, bool write,
		   int64_t e)
{
	struct memdev *d = ch->d;
	struct entry *en = &b->q[pos];
	struct timing_group *g = &x->bg[b->bg];
	struct rank *r = &x->rank[b->rank];

	if (b->hits > 0)
		d->row_hits++;
	b->hits++;
	mark(x, b);
	if (write)
		d->writes++;
	else
		d->reads++;
	d->bytes += d->cfg.block_bytes;
	if (write) {
		b->next_pre = max64(b->next_pre, e + x->wtp);
		g->next_rd = max64(g->next_rd, e + x->wtr_l);
		g->next_wr = max64(g->next_wr, e + x->wtw_l);
		r->t.next_rd = max64(r->t.next_rd, e + x->wtr_s);
		r->t.next_wr = max64(r->t.next_wr, e + x->wtw_s);
	} else {
		b->next_pre = max64(b->next_pre, e + x->rtp);
		g->next_rd = max64(g->next_rd, e + x->rtr_l);
		g->next_wr = max64(g->next_wr, e + x->rtw);
		r->t.next_rd = max64(r->t.next_rd, e + x->rtr_s);
		r->t.next_wr = max64(r->t.next_wr, e + x->rtw);
	}
	for (int k = 0; k < x->nrk; k++) {
		struct rank *o = &x->rank[k];

		if (o == r)
			continue;
		o->t.next_rd = max64(o->t.next_rd, e + (write ? x->wtr_o : x->rtr_o));
		o->t.next_wr = max64(o->t.next_wr, e + (write ? x->wtw_o : x->rtw_o));
	}
	en->col++;
	if (--en->left)
		return;
	heap_push(x, e + (write ? x->wr_delay : x->rd_delay), en->r);
	remove_entry(x, b, pos);
	if (x->cfg->page_policy == MEMDEV_CLOSE_PAGE) {
		/* Auto-precharge (READ/WRITE_PRECHARGE) with the request's last
		 * block, unless another request waits for the same row. */
		if (b->rd_hit < 0 && b->wr_hit < 0) {
			b->row = -1;
			b->next_act = max64(b->next_act, e + (write ? x->wrp_act : x->rdp_act));
			mark(x, b);
		}
	}
}

static void activate(struct ddr *x, struct memdev *d, struct bank *b, int64_t e)
{
	const struct memdev_config *c = x->cfg;
	struct rank *r = &x->rank[b->rank];

	b->row = b->q[0].row;
	b->hits = 0;
	classify(b);
	mark(x, b);
	b->next_act = max64(b->next_act, e + c->tRAS + c->tRP);
	b->next_rd = max64(b->next_rd, e + c->tRCD - c->AL);
	b->next_wr = max64(b->next_wr, e + c->tRCD - c->AL);
	b->next_pre = max64(b->next_pre, e + c->tRAS);
	x->bg[b->bg].next_act = max64(x->bg[b->bg].next_act, e + c->tRRD_L);
	r->t.next_act = max64(r->t.next_act, e + c->tRRD_S);
	r->faw[r->ifaw] = e;
	r->ifaw = (r->ifaw + 1) % 4;
	if (r->nfaw < 4)
		r->nfaw++;
	rank_act_at(x, r);
	d->acts++;
}

static void precharge(struct ddr *x, struct memdev *d, struct bank *b, int64_t e)
{
	b->row = -1;
	b->rd_hit = b->wr_hit = -1;
	mark(x, b);
	b->next_act = max64(b->next_act, e + x->cfg->tRP);
	d->pres++;
}

static void refresh(struct ddr *x, struct memdev *d, int rk, int64_t e)
{
	int per = x->cfg->banks;

	for (int i = rk * per; i < (rk + 1) * per; i++) {
		x->bank[i].next_act = max64(x->bank[i].next_act, e + x->cfg->tRFC);
		mark(x, &x->bank[i]);
	}
	set_ref_due(x, &x->rank[rk], false);
	d->refs++;
}

/* The refresh-related command ready at e for the first rank due, if any. */
static bool issue_refresh(struct ddr *x, struct memdev *d, int64_t e)
{
	if (!x->ref_pending)
		return false;
	for (int rk = 0; rk < x->nrk; rk++) {
		int64_t when;
		int bank;
		enum cmd c;

		if (!x->rank[rk].ref_due)
			continue;
		c = refresh_offer(x, rk, e, &bank, &when);
		if (c == C_PRE) {
			precharge(x, d, &x->bank[bank], e);
			return true;
		}
		if (c == C_REF) {
			refresh(x, d, rk, e);
			return true;
		}
	}
	return false;
}

/* The first of the banks of group g from in_group `from` to `to` - 1, in
 * order, that offers a command ready at e (*c, *pos), or NULL. */
static struct bank *offer_in(struct ddr *x, int g, int from, int to, int64_t e, enum cmd *c,
			     int *pos)
{
	uint64_t m = x->bg[g].queued >> from;
	int64_t when;

	if (to - from < 64)
		m &= (1ULL << (to - from)) - 1;
	for (; m; m &= m - 1) {
		struct bank *b = &x->bank[x->bg[g].first + from + __builtin_ctzll(m)];

		*c = queue_offer(x, b, e, pos, &when);
		if (*c != C_NONE)
			return b;
	}
	return NULL;
}

/* The first bank queue, in round robin from the one after the last served,
 * that offers a command ready at e (*c, *pos), or NULL.  A bank group with
 * nothing ready is passed over whole. */
static struct bank *pick(struct ddr *x, int64_t e, enum cmd *c, int *pos)
{
	int i = x->rr + 1 == x->nb ? 0 : x->rr + 1;
	int g = x->bank[i].bg, from = x->bank[i].in_group, n = x->bpg - from, left = x->nb;
	struct bank *b;

	for (;;) {
		if (n > left)
			n = left;
		if (group_time(x, g) <= e && (b = offer_in(x, g, from, from + n, e, c, pos)))
			return b;
		left -= n;
		if (left <= 0)
			return NULL;
		from = 0;
		n = x->bpg;
		if (++g == x->nbg)
			g = 0;
	}
}

static void issue(struct ddr *x, struct md_chan *ch, int64_t e)
{
	struct memdev *d = ch->d;
	struct bank *b;
	enum cmd c;
	int pos;

	if (issue_refresh(x, d, e))
		return;
	if (issue_time(x) > e)
		return;		/* every bank group would be passed over */
	b = pick(x, e, &c, &pos);
	if (!b)
		return;
	x->rr = (int)(b - x->bank);
	switch (c) {
	case C_ACT:
		activate(x, d, b, e);
		break;
	case C_PRE:
		precharge(x, d, b, e);
		break;
	default:
		column(x, ch, b, pos, c == C_WR, e);
	}
}

/* ---- the channel's events ---- */

/* Anything to do besides refreshing on schedule? */
static bool ddr_busy(const struct ddr *x)
{
	if (x->hn || x->tq[0].n || x->tq[1].n || x->ref_pending)
		return true;
	return queue_has_columns(x);
}

/*
 * step_every_cycle = 2: every kept value (the banks' first hits, the
 * earliest command times of banks, groups and ranks, the next request to
 * move, the next event) is found again from the state at every visit, so
 * that a run in this mode is the reference the kept values are checked
 * against (test/unit/memdev.c, kept_values_exact).
 */
static void forget_kept_values(struct ddr *x, struct md_chan *ch)
{
	for (int i = 0; i < x->nb; i++) {
		classify(&x->bank[i]);
		mark(x, &x->bank[i]);
	}
	for (int rk = 0; rk < x->nrk; rk++)
		rank_act_at(x, &x->rank[rk]);
	x->tq[0].mv_valid = x->tq[1].mv_valid = false;
	ch->next_ok = false;
}

static int64_t ddr_next(struct md_chan *ch)
{
	struct ddr *x = ch->impl;
	int64_t t = x->next_ref, when;
	int pos;

	if (x->cfg->step_every_cycle == 2)
		forget_kept_values(x, ch);
	/* An idle channel waits for a request: the refreshes it owes by then
	 * are done when one arrives (ddr_accept). */
	if (ch->next_ok)
		return max64(ch->next_at, ch->clk);
	if (!ddr_busy(x)) {
		/* until a request arrives (ddr_accept clears next_ok) */
		ch->next_at = MD_NEVER;
		ch->next_ok = true;
		return MD_NEVER;
	}

	if (x->hn)
		t = min64(t, x->heap[0].t);
	for (int rk = 0; x->ref_pending && rk < x->nrk; rk++) {
		if (x->rank[rk].ref_due) {
			refresh_offer(x, rk, MD_NEVER - 1, &pos, &when);
			t = min64(t, when);
		}
	}
	/* The controller decides to drain the write buffer as soon as it may
	 * (DRAMsim3 looks every cycle), even when nothing can move yet. */
	if (x->draining == 0 && x->tq[1].n && drain_now(x))
		t = ch->clk;
	if (x->tq[0].n || x->tq[1].n) {
		/* A move happens at the first cycle a request has arrived and
		 * has room; the drain decision does not change in between. */
		bool writes = drain_now(x);
		int i = movable(x, MD_NEVER - 1, writes);

		if (i >= 0)
			t = min64(t, x->tq[writes].v[i].arrive);
	}
	/* Nothing comes before clk: then the commands need not be looked at. */
	if (t > ch->clk)
		t = min64(t, issue_time(x));
	ch->next_at = t;
	ch->next_ok = true;
	return max64(t, ch->clk);
}

static void ddr_step(struct md_chan *ch, int64_t e)
{
	struct ddr *x = ch->impl;

	if (x->cfg->step_every_cycle == 2)
		forget_kept_values(x, ch);
	ch->next_ok = false;
	while (x->hn && x->heap[0].t <= e) {
		struct done_slot s = heap_pop(x);

		md_complete(ch, s.r, s.t);
	}
	if (e >= x->next_ref) {
		if (x->cfg->refresh == MEMDEV_REF_STAGGERED) {
			set_ref_due(x, &x->rank[x->ref_rank], true);
			x->ref_rank = (x->ref_rank + 1) % x->nrk;
		} else {
			for (int rk = 0; rk < x->nrk; rk++)
				set_ref_due(x, &x->rank[rk], true);
		}
		x->next_ref += x->ref_interval;
	}
	issue(x, ch, e);
	move_one(x, e);
}

static bool ddr_room(const struct md_chan *ch, bool write)
{
	const struct ddr *x = ch->impl;

	return x->tq[write].n < x->tqs;
}

/* One refresh interval of an idle channel, as it happens, stopping at
 * cycle `until`. */
static void idle_interval(struct ddr *x, struct md_chan *ch, int64_t until)
{
	int64_t e = x->next_ref;

	ch->clk = e + 1;
	ddr_step(ch, e);
	while (ddr_busy(x) && (e = ddr_next(ch)) < until) {
		ch->clk = e + 1;
		ddr_step(ch, e);
	}
}

/*
 * An idle channel's refreshes repeat once they have settled: after one
 * round (every rank refreshed once) the state is the previous round's
 * shifted by the round's length.  Play one round; if it repeated the one
 * before, skip the whole rounds that end before `until` at once, so that
 * an idle stretch costs constant work and not one step per tREFI.  Only
 * state the idle rounds change (banks' rows and next_act, the refresh
 * schedule, the counters) moves; the rest lies in the past and stays.
 * False if it did nothing.
 */
static bool idle_rounds(struct ddr *x, struct md_chan *ch, int64_t until)
{
	int per_round = x->cfg->refresh == MEMDEV_REF_STAGGERED ? x->nrk : 1;
	int64_t round = (int64_t)per_round * x->ref_interval, start = x->next_ref, k;
	long refs = ch->d->refs, acts = ch->d->acts, pres = ch->d->pres;
	int ref_rank = x->ref_rank;
	int64_t clk = ch->clk - start;

	if ((until - start) / round < 3)
		return false;
	for (int i = 0; i < x->nb; i++) {
		if (x->bank[i].row >= 0)
			return false;	/* a refresh will close it: not settled */
		x->idle_act[i] = x->bank[i].next_act - start;
	}
	for (int i = 0; i < per_round; i++)
		idle_interval(x, ch, until);
	if (ddr_busy(x) || x->next_ref != start + round || x->ref_rank != ref_rank ||
	    ch->clk - x->next_ref != clk)
		return true;
	for (int i = 0; i < x->nb; i++)
		if (x->bank[i].row >= 0 || x->bank[i].next_act - x->next_ref != x->idle_act[i])
			return true;
	k = (until - 1 - x->next_ref) / round - 1;
	if (k <= 0)
		return true;
	for (int i = 0; i < x->nb; i++) {
		x->bank[i].next_act += k * round;
		mark(x, &x->bank[i]);
	}
	x->next_ref += k * round;
	ch->clk += k * round;
	ch->d->refs += k * (ch->d->refs - refs);
	ch->d->acts += k * (ch->d->acts - acts);
	ch->d->pres += k * (ch->d->pres - pres);
	return true;
}

static void ddr_accept(struct md_chan *ch, struct memdev_req *r)
{
	struct ddr *x = ch->impl;
	struct tqueue *q = &x->tq[r->write];
	int local = r->bank - ch->index * x->nb;	/* r->bank % nb, without dividing */

	/* Catch up on the refreshes of the idle time, as they happened. */
	while (!ddr_busy(x) && x->next_ref < r->arrive_cyc)
		if (!idle_rounds(x, ch, r->arrive_cyc))
			idle_interval(x, ch, r->arrive_cyc);
	if (ch->clk < r->arrive_cyc)
		ch->clk = r->arrive_cyc;
	ch->next_ok = false;
	if (q->v + q->n == q->buf + 2 * x->tqs) {
		memmove(q->buf, q->v, q->n * sizeof(*q->v));
		q->v = q->buf;
	}
	q->v[q->n++] = (struct waiting){ r, r->arrive_cyc, local };
	q->per_bank[local]++;
	/* Appended: it is the first with room only if none was before. */
	if (q->mv_valid && q->mv < 0 && x->bank[local].qn < x->cqs)
		q->mv = q->n - 1;
}

const struct md_kind md_ddr = {
	.open = ddr_open,
	.free = ddr_free,
	.next = ddr_next,
	.step = ddr_step,
	.room = ddr_room,
	.accept = ddr_accept,
};
