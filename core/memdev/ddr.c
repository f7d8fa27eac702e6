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

#include "ddr_state.h"

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
		md_ddr_mark(x, b);
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

/* ---- the channel's events ---- */

/* Anything to do besides refreshing on schedule? */
static bool ddr_busy(const struct ddr *x)
{
	if (x->hn || x->tq[0].n || x->tq[1].n || x->ref_pending)
		return true;
	return md_ddr_queue_has_columns(x);
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
		md_ddr_classify(&x->bank[i]);
		md_ddr_mark(x, &x->bank[i]);
	}
	for (int rk = 0; rk < x->nrk; rk++)
		md_ddr_rank_act_at(x, &x->rank[rk]);
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
			md_ddr_refresh_offer(x, rk, MD_NEVER - 1, &pos, &when);
			t = min64(t, when);
		}
	}
	/* The controller decides to drain the write buffer as soon as it may
	 * (DRAMsim3 looks every cycle), even when nothing can move yet. */
	if (x->draining == 0 && x->tq[1].n && md_ddr_drain_now(x))
		t = ch->clk;
	if (x->tq[0].n || x->tq[1].n) {
		/* A move happens at the first cycle a request has arrived and
		 * has room; the drain decision does not change in between. */
		bool writes = md_ddr_drain_now(x);
		int i = md_ddr_movable(x, MD_NEVER - 1, writes);

		if (i >= 0)
			t = min64(t, x->tq[writes].v[i].arrive);
	}
	/* Nothing comes before clk: then the commands need not be looked at. */
	if (t > ch->clk)
		t = min64(t, md_ddr_issue_time(x));
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
		struct done_slot s = md_ddr_heap_pop(x);

		md_complete(ch, s.r, s.t);
	}
	if (e >= x->next_ref) {
		if (x->cfg->refresh == MEMDEV_REF_STAGGERED) {
			md_ddr_set_ref_due(x, &x->rank[x->ref_rank], true);
			x->ref_rank = (x->ref_rank + 1) % x->nrk;
		} else {
			for (int rk = 0; rk < x->nrk; rk++)
				md_ddr_set_ref_due(x, &x->rank[rk], true);
		}
		x->next_ref += x->ref_interval;
	}
	md_ddr_issue(x, ch, e);
	md_ddr_move_one(x, e);
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
		md_ddr_mark(x, &x->bank[i]);
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
