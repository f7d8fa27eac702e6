/* SPDX-License-Identifier: MIT */
/*
 * The state of one DDR4 channel (ddr.c) and what its parts share:
 * ddr_ready.c, when each bank, group and rank can take which command;
 * ddr_issue.c, moving requests into the command queues, issuing commands
 * and their completions.  Not for use outside core/memdev: chan.h is the
 * interface.
 */
#ifndef MD_DDR_H
#define MD_DDR_H

#include <stdbool.h>
#include <stdint.h>

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

/* A bank's state changed (and with it, maybe, its group's and rank's). */
static inline void md_ddr_mark(struct ddr *x, struct bank *b)
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

/* ddr_ready.c */
void md_ddr_rank_act_at(const struct ddr *x, struct rank *r);
int md_ddr_first_hit(const struct bank *b, int from, bool write);
void md_ddr_classify(struct bank *b);
void md_ddr_set_ref_due(struct ddr *x, struct rank *r, bool due);
int64_t md_ddr_group_time(struct ddr *x, int g);
int64_t md_ddr_issue_time(struct ddr *x);
enum cmd md_ddr_queue_offer(struct ddr *x, struct bank *b, int64_t e, int *pos, int64_t *when);
enum cmd md_ddr_refresh_offer(struct ddr *x, int rk, int64_t e, int *bank, int64_t *when);

/* ddr_issue.c */
bool md_ddr_queue_has_columns(const struct ddr *x);
bool md_ddr_drain_now(const struct ddr *x);
int md_ddr_movable(struct ddr *x, int64_t e, bool writes);
void md_ddr_move_one(struct ddr *x, int64_t e);
void md_ddr_issue(struct ddr *x, struct md_chan *ch, int64_t e);
bool md_ddr_heap_push(struct ddr *x, int64_t t, struct memdev_req *r);
struct done_slot md_ddr_heap_pop(struct ddr *x);

#endif
