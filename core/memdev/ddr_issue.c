/* SPDX-License-Identifier: MIT */
/*
 * A DDR4 channel's requests moved into its bank queues, the command issued
 * each cycle and the completions it produces, by time: ddr.c's model.
 */
#include <stdlib.h>
#include <string.h>

#include "ddr_state.h"

/* ---- completions: a binary heap by time ---- */

bool md_ddr_heap_push(struct ddr *x, int64_t t, struct memdev_req *r)
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

struct done_slot md_ddr_heap_pop(struct ddr *x)
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

/* ---- moving requests into the command queues ---- */

bool md_ddr_queue_has_columns(const struct ddr *x)
{
	return x->queued > 0;
}

/* DRAMsim3's write drain (a full write buffer, or more than write_buf_size
 * writes and empty command queues), plus: with nothing else to do, any
 * writes drain (DRAMsim3 acknowledges writes at once and may keep a few
 * forever; here a write completes when it is written). */
bool md_ddr_drain_now(const struct ddr *x)
{
	int rn = x->tq[0].n, wn = x->tq[1].n;

	if (x->draining > 0)
		return true;
	if (wn >= x->tqs)
		return true;
	if (wn > 0 && !md_ddr_queue_has_columns(x) && (wn > x->wbs || rn == 0))
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
int md_ddr_movable(struct ddr *x, int64_t e, bool writes)
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

void md_ddr_move_one(struct ddr *x, int64_t e)
{
	bool writes = md_ddr_drain_now(x);
	struct tqueue *q = &x->tq[writes], *o = &x->tq[!writes];
	struct memdev_req *r;
	struct bank *b;
	int i;

	if (writes && x->draining == 0)
		x->draining = q->n;
	x->ch->next_ok = false;
	i = md_ddr_movable(x, e, writes);
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
	md_ddr_mark(x, b);
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
		b->rd_hit = md_ddr_first_hit(b, pos, false);
	else if (b->rd_hit > pos)
		b->rd_hit--;
	if (b->wr_hit == pos)
		b->wr_hit = md_ddr_first_hit(b, pos, true);
	else if (b->wr_hit > pos)
		b->wr_hit--;
	x->queued--;
	x->group_queued[b->bg]--;
	if (!b->qn)
		x->bg[b->bg].queued &= ~(1ULL << b->in_group);
	room_freed(x, (int)(b - x->bank));
	md_ddr_mark(x, b);
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
	md_ddr_mark(x, b);
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
	md_ddr_heap_push(x, e + (write ? x->wr_delay : x->rd_delay), en->r);
	remove_entry(x, b, pos);
	if (x->cfg->page_policy == MEMDEV_CLOSE_PAGE) {
		/* Auto-precharge (READ/WRITE_PRECHARGE) with the request's last
		 * block, unless another request waits for the same row. */
		if (b->rd_hit < 0 && b->wr_hit < 0) {
			b->row = -1;
			b->next_act = max64(b->next_act, e + (write ? x->wrp_act : x->rdp_act));
			md_ddr_mark(x, b);
		}
	}
}

static void activate(struct ddr *x, struct memdev *d, struct bank *b, int64_t e)
{
	const struct memdev_config *c = x->cfg;
	struct rank *r = &x->rank[b->rank];

	b->row = b->q[0].row;
	b->hits = 0;
	md_ddr_classify(b);
	md_ddr_mark(x, b);
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
	md_ddr_rank_act_at(x, r);
	d->acts++;
}

static void precharge(struct ddr *x, struct memdev *d, struct bank *b, int64_t e)
{
	b->row = -1;
	b->rd_hit = b->wr_hit = -1;
	md_ddr_mark(x, b);
	b->next_act = max64(b->next_act, e + x->cfg->tRP);
	d->pres++;
}

static void refresh(struct ddr *x, struct memdev *d, int rk, int64_t e)
{
	int per = x->cfg->banks;

	for (int i = rk * per; i < (rk + 1) * per; i++) {
		x->bank[i].next_act = max64(x->bank[i].next_act, e + x->cfg->tRFC);
		md_ddr_mark(x, &x->bank[i]);
	}
	md_ddr_set_ref_due(x, &x->rank[rk], false);
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
		c = md_ddr_refresh_offer(x, rk, e, &bank, &when);
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

		*c = md_ddr_queue_offer(x, b, e, pos, &when);
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
		if (md_ddr_group_time(x, g) <= e && (b = offer_in(x, g, from, from + n, e, c, pos)))
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

void md_ddr_issue(struct ddr *x, struct md_chan *ch, int64_t e)
{
	struct memdev *d = ch->d;
	struct bank *b;
	enum cmd c;
	int pos;

	if (issue_refresh(x, d, e))
		return;
	if (md_ddr_issue_time(x) > e)
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
