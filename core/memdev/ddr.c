/* SPDX-License-Identifier: MIT */
/*
 * DDR4 commands and their timing (docs/memdev.md, "The DDR4 model").
 * Times inside are clock cycles (tCK); seconds only at the interface.
 */
#include "ddr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/engine.h"

#define MAX_BG 8		/* bank groups per rank */
#define HIT_BYPASS 4		/* row hits served ahead of an older miss, at most */
#define NEVER (-(1L << 60))

enum cmd { CMD_ACT, CMD_PRE, CMD_RD, CMD_WR, CMD_REF };

struct node {
	struct memdev_req *r;
	long arrive;
	int bank;		/* flat */
	int row, col;		/* next column access: block `col` of `row` */
	int left;		/* column accesses still to issue */
	bool act;		/* an ACT was issued for it */
	bool accessed;		/* a column access was issued for it */
	struct node *next;
};

struct bank {
	struct node *head, *tail;	/* command queue, oldest first */
	int queued;
	int outstanding;	/* queued, waiting or finishing */
	int open_row;		/* -1: closed */
	long next_act, next_pre, next_rd, next_wr;
	int bypass;		/* hits served ahead of the head */
	long reads, writes;
};

struct rank {
	long next_act[MAX_BG];	/* tRRD_S/L */
	long next_rd[MAX_BG], next_wr[MAX_BG];
	long faw[4];		/* the last four ACTs */
	int faw_i;
	long next_ref;
};

struct fin {
	long at;
	struct node *n;
};

struct cand {
	long at;
	enum cmd cmd;
	int bank, rank;		/* bank flat; rank within the channel */
	struct node *n;		/* NULL for refresh */
};

struct chan {
	long last_cmd;
	struct node *wait_head, *wait_tail;	/* transaction queue */
	int waiting;
	struct fin *fin;	/* data in flight, soonest first */
	int nfin, fincap;
	int outstanding;
	int *active;		/* banks with a queued request */
	int nactive;
	bool cand_valid;
	struct cand cand;
};

struct ddr {
	struct memdev_config cfg;
	struct memdev_ddr p;
	int channels, ranks, banks;	/* banks per rank */
	int nbanks;
	int shift[6];		/* ro ba bg ra ch co: bit position, bits */
	int bits[6];
	int offset_bits;
	/* derived timing */
	int RL, WL, burst, rtrs, rtrl, rtro, rtw, rtwo, wtrs, wtrl, wtro, wtws, wtwl, wtwo;
	int rtp, wtp, tRC;
	struct bank *bank;
	struct rank *rank;	/* channel-major */
	struct chan *chan;
	struct node *pool;	/* free nodes */
	/* statistics */
	struct memdev_stats st;
	long last_t;		/* of the busy integrals */
	int busy_channels, busy_banks;
	double busy_c, channel_busy_c, bank_busy_c;	/* cycles */
};

enum field { F_RO, F_BA, F_BG, F_RA, F_CH, F_CO };

static int log2_exact(long v)
{
	int b = 0;

	if (v < 1 || (v & (v - 1)))
		return -1;
	while ((1L << b) < v)
		b++;
	return b;
}

/* Bit layout of the mapping string, least significant field last. */
static int set_mapping(struct ddr *m, char *why, size_t len)
{
	static const char *const names[6] = { "ro", "ba", "bg", "ra", "ch", "co" };
	const struct memdev_ddr *p = &m->p;
	long counts[6] = { p->rows, p->banks_per_group, p->bankgroups, m->ranks, m->channels,
			   p->columns / p->BL };
	const char *s = p->mapping;
	int order[6], at = m->offset_bits;

	if (strlen(s) != 12)
		return snprintf(why, len, "address mapping '%s' is not six two-letter fields", s), -1;
	for (int i = 0; i < 6; i++) {
		int f;

		for (f = 0; f < 6 && strncmp(s + 2 * i, names[f], 2) != 0; f++)
			;
		for (int j = 0; j < i && f < 6; j++)
			if (order[j] == f)
				f = 6;
		if (f == 6)
			return snprintf(why, len, "address mapping '%s' does not name each of ro ba bg ra ch co once", s), -1;
		order[i] = f;
		m->bits[f] = log2_exact(counts[f]);
		if (m->bits[f] < 0)
			return snprintf(why, len, "%s count %ld is not a power of two", names[f], counts[f]), -1;
	}
	for (int i = 5; i >= 0; i--) {
		m->shift[order[i]] = at;
		at += m->bits[order[i]];
	}
	return 0;
}

static void derive(struct ddr *m)
{
	const struct memdev_ddr *p = &m->p;

	m->RL = p->AL + p->CL;
	m->WL = p->AL + p->CWL;
	m->burst = p->BL / 2;
	m->rtrs = m->burst > p->tCCD_S ? m->burst : p->tCCD_S;
	m->rtrl = m->burst > p->tCCD_L ? m->burst : p->tCCD_L;
	m->rtro = m->burst + p->tRTRS;
	m->rtw = m->RL + m->burst - m->WL + 2;
	m->rtwo = m->RL + m->burst + p->tRTRS - m->WL;
	m->wtrs = m->WL + m->burst + p->tWTR_S;
	m->wtrl = m->WL + m->burst + p->tWTR_L;
	m->wtro = m->WL + m->burst + p->tRTRS - m->RL;
	m->wtws = m->rtrs;
	m->wtwl = m->rtrl;
	m->wtwo = m->burst + p->tRTRS;
	m->rtp = p->AL + p->tRTP;
	m->wtp = m->WL + m->burst + p->tWR;
	m->tRC = p->tRAS + p->tRP;
}

static int check_config(const struct memdev_config *cfg, char *why, size_t len)
{
	const struct memdev_ddr *p = &cfg->ddr;

	if (cfg->channels < 1 || cfg->ranks < 1 || p->bankgroups < 1 || p->bankgroups > MAX_BG ||
	    p->banks_per_group < 1 || p->rows < 1 || p->columns < 1 || p->device_width < 1 ||
	    p->bus_width < 8 || p->bus_width % 8 || p->BL < 2 || p->BL % 2 || !(p->tCK_s > 0) ||
	    p->columns % p->BL || p->trans_queue_size < 1 || p->cmd_queue_size < 1)
		return snprintf(why, len, "geometry, burst length, tCK and queue sizes must be positive (bus width a multiple of 8, at most %d bank groups)", MAX_BG), -1;
	if (p->CL < 1 || p->CWL < 1 || p->AL < 0 || p->tRCD < 1 || p->tRP < 1 || p->tRAS < 1 ||
	    p->tRFC < 1 || p->tREFI <= p->tRFC || p->tRRD_S < 1 || p->tRRD_L < 1 || p->tWTR_S < 0 ||
	    p->tWTR_L < 0 || p->tFAW < 0 || p->tWR < 0 || p->tRTP < 0 || p->tCCD_S < 1 ||
	    p->tCCD_L < 1 || p->tRTRS < 0 || p->tRCD <= p->AL)
		return snprintf(why, len, "a timing parameter is out of range (tREFI must exceed tRFC, tRCD exceed AL)"), -1;
	return 0;
}

struct ddr *ddr_open(const struct memdev_config *cfg, char *why, size_t len)
{
	struct ddr *m;

	if (check_config(cfg, why, len))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	m->cfg = *cfg;
	m->p = cfg->ddr;
	m->channels = cfg->channels;
	m->ranks = cfg->ranks;
	m->banks = m->p.bankgroups * m->p.banks_per_group;
	m->nbanks = m->channels * m->ranks * m->banks;
	m->offset_bits = log2_exact(cfg->line_bytes);
	if (m->offset_bits < 0 || set_mapping(m, why, len)) {
		if (m->offset_bits < 0)
			snprintf(why, len, "request size %d is not a power of two", cfg->line_bytes);
		free(m);
		return NULL;
	}
	derive(m);
	m->bank = calloc((size_t)m->nbanks, sizeof(*m->bank));
	m->rank = calloc((size_t)(m->channels * m->ranks), sizeof(*m->rank));
	m->chan = calloc((size_t)m->channels, sizeof(*m->chan));
	if (!m->bank || !m->rank || !m->chan)
		goto oom;
	for (int c = 0; c < m->channels; c++) {
		m->chan[c].last_cmd = NEVER;
		m->chan[c].active = malloc((size_t)(m->ranks * m->banks) * sizeof(int));
		if (!m->chan[c].active)
			goto oom;
	}
	for (int b = 0; b < m->nbanks; b++) {
		m->bank[b].open_row = -1;
		m->bank[b].next_act = m->bank[b].next_pre = m->bank[b].next_rd = m->bank[b].next_wr = 0;
	}
	/* Refresh staggered over the ranks of a channel; no ACT before. */
	for (int r = 0; r < m->channels * m->ranks; r++) {
		m->rank[r].next_ref = (long)m->p.tREFI * (r % m->ranks + 1) / m->ranks;
		for (int i = 0; i < 4; i++)
			m->rank[r].faw[i] = NEVER;
	}
	return m;
oom:
	snprintf(why, len, "out of memory");
	ddr_close(m);
	return NULL;
}

void ddr_close(struct ddr *m)
{
	if (!m)
		return;
	for (int c = 0; m->chan && c < m->channels; c++) {
		free(m->chan[c].active);
		free(m->chan[c].fin);
	}
	while (m->pool) {
		struct node *n = m->pool;

		m->pool = n->next;
		free(n);
	}
	free(m->bank);
	free(m->rank);
	free(m->chan);
	free(m);
}

/* ---- geometry ---- */

int ddr_banks(const struct ddr *m)
{
	return m->nbanks;
}

static long field(const struct ddr *m, long addr, enum field f)
{
	return (addr >> m->shift[f]) & ((1L << m->bits[f]) - 1);
}

static bool inside(const struct ddr *m, long addr)
{
	int top = m->offset_bits;

	for (int f = 0; f < 6; f++)
		top += m->bits[f];
	return addr >= 0 && (top >= 62 || addr < (1L << top));
}

int ddr_bank_of(const struct ddr *m, long addr)
{
	if (!inside(m, addr))
		return -1;
	return ((int)field(m, addr, F_CH) * m->ranks + (int)field(m, addr, F_RA)) * m->banks +
	       (int)field(m, addr, F_BA) * m->p.bankgroups + (int)field(m, addr, F_BG);
}

int ddr_channel_of(const struct ddr *m, int bank)
{
	return bank / (m->ranks * m->banks);
}

int ddr_bank_pending(const struct ddr *m, int bank)
{
	return bank >= 0 && bank < m->nbanks ? m->bank[bank].outstanding : 0;
}

void ddr_bank_counts(const struct ddr *m, int bank, long *reads, long *writes)
{
	*reads = m->bank[bank].reads;
	*writes = m->bank[bank].writes;
}

long ddr_address(const struct ddr *m, int ch, int rk, int bank, int row, int block)
{
	if (ch < 0 || ch >= m->channels || rk < 0 || rk >= m->ranks || bank < 0 ||
	    bank >= m->banks || row < 0 || row >= m->p.rows || block < 0 ||
	    block >= m->p.columns / m->p.BL)
		return -1;
	return (long)row << m->shift[F_RO] | (long)(bank / m->p.bankgroups) << m->shift[F_BA] |
	       (long)(bank % m->p.bankgroups) << m->shift[F_BG] | (long)rk << m->shift[F_RA] |
	       (long)ch << m->shift[F_CH] | (long)block << m->shift[F_CO];
}

static int rank_of(const struct ddr *m, int bank)
{
	return bank / m->banks;		/* channel-major: channel * ranks + rank */
}

static int bg_of(const struct ddr *m, int bank)
{
	return bank % m->banks % m->p.bankgroups;
}

/* ---- time: cycles inside, seconds outside ---- */

/*
 * A time within a millionth of a cycle of a clock edge is that edge: a
 * cycle count handed out in seconds and handed back must give the same
 * count, and at 10^7 cycles and more the product with tCK loses digits.
 */
#define EDGE 1e-6

/* The first clock edge at or after `s` seconds, and the last at or before. */
static long cycle_of(const struct ddr *m, double s)
{
	return (long)ceil(s / m->p.tCK_s - EDGE);
}

static long cycle_until(const struct ddr *m, double s)
{
	return (long)floor(s / m->p.tCK_s + EDGE);
}

/* ---- statistics: time averages, calls in time order ---- */

static void integrate(struct ddr *m, long t)
{
	if (t > m->last_t) {
		double dt = (double)(t - m->last_t);

		if (m->busy_channels)
			m->busy_c += dt;
		m->channel_busy_c += dt * m->busy_channels;
		m->bank_busy_c += dt * m->busy_banks;
		m->last_t = t;
	}
}

static void busy_change(struct ddr *m, int bank, int delta, long t)
{
	struct bank *b = &m->bank[bank];
	struct chan *c = &m->chan[ddr_channel_of(m, bank)];

	integrate(m, t);
	if (delta > 0) {
		m->busy_banks += b->outstanding++ == 0;
		m->busy_channels += c->outstanding++ == 0;
	} else {
		m->busy_banks -= --b->outstanding == 0;
		m->busy_channels -= --c->outstanding == 0;
	}
}

void ddr_stats(const struct ddr *m, double now, struct memdev_stats *s)
{
	double tck = m->p.tCK_s, extra = 0;
	long t = cycle_until(m, now);

	*s = m->st;
	if (t > m->last_t && m->busy_channels)
		extra = (double)(t - m->last_t);
	s->busy_s = (m->busy_c + extra) * tck;
	s->channel_busy_s = (m->channel_busy_c + extra * m->busy_channels) * tck;
	s->bank_busy_s = (m->bank_busy_c + extra * m->busy_banks) * tck;
}

/* ---- requests ---- */


static void activate(struct chan *c, int bank)
{
	c->active[c->nactive++] = bank;
}

static void deactivate(struct chan *c, int bank)
{
	for (int i = 0; i < c->nactive; i++) {
		if (c->active[i] == bank) {
			c->active[i] = c->active[--c->nactive];
			return;
		}
	}
}

static void bank_push(struct ddr *m, struct node *n)
{
	struct bank *b = &m->bank[n->bank];

	n->next = NULL;
	if (b->tail)
		b->tail->next = n;
	else
		b->head = n;
	b->tail = n;
	if (b->queued++ == 0)
		activate(&m->chan[ddr_channel_of(m, n->bank)], n->bank);
}

bool ddr_will_accept(const struct ddr *m, long addr, int blocks)
{
	int bank = ddr_bank_of(m, addr);

	return bank >= 0 && m->chan[ddr_channel_of(m, bank)].waiting < m->p.trans_queue_size;
}

/* An idle channel's ranks refreshed on time while nothing waited. */
static void catch_up_refresh(struct ddr *m, int ch, long t)
{
	for (int r = ch * m->ranks; r < (ch + 1) * m->ranks; r++) {
		struct rank *rk = &m->rank[r];

		while (rk->next_ref <= t) {
			long ref = rk->next_ref;

			for (int b = r * m->banks; b < (r + 1) * m->banks; b++) {
				struct bank *bk = &m->bank[b];

				if (bk->open_row >= 0 && bk->next_pre + m->p.tRP > ref)
					ref = bk->next_pre + m->p.tRP;
				if (bk->open_row < 0 && bk->next_act > ref)
					ref = bk->next_act;
			}
			for (int b = r * m->banks; b < (r + 1) * m->banks; b++) {
				m->bank[b].open_row = -1;
				m->bank[b].bypass = 0;
				if (m->bank[b].next_act < ref + m->p.tRFC)
					m->bank[b].next_act = ref + m->p.tRFC;
			}
			rk->next_ref += m->p.tREFI;
			m->st.refreshes++;
		}
	}
}

void ddr_enqueue(struct ddr *m, struct memdev_req *r, double now)
{
	int bank = ddr_bank_of(m, r->addr), ch = ddr_channel_of(m, bank);
	struct chan *c = &m->chan[ch];
	struct node *n = m->pool;
	long t = cycle_of(m, now);

	if (n)
		m->pool = n->next;
	else if (!(n = malloc(sizeof(*n))))
		dl_sim_error("out of memory");
	r->arrive_s = now;
	*n = (struct node){ r, t, bank, (int)field(m, r->addr, F_RO), (int)field(m, r->addr, F_CO),
			    r->blocks > 0 ? r->blocks : 1, false, false, NULL };
	if (c->outstanding == 0)
		catch_up_refresh(m, ch, t);
	busy_change(m, bank, +1, t);
	if (r->write)
		m->bank[bank].writes++;
	else
		m->bank[bank].reads++;
	if (m->bank[bank].queued < m->p.cmd_queue_size) {
		bank_push(m, n);
	} else {
		n->next = NULL;
		if (c->wait_tail)
			c->wait_tail->next = n;
		else
			c->wait_head = n;
		c->wait_tail = n;
		c->waiting++;
	}
	c->cand_valid = false;
}

/* ---- choosing the next command ---- */

static long max2(long a, long b)
{
	return a > b ? a : b;
}

/* Earliest cycle for `cmd` on bank b (of rank r) serving node n. */
static long ready_at(const struct ddr *m, const struct chan *c, enum cmd cmd, int b,
		     const struct node *n)
{
	const struct bank *bk = &m->bank[b];
	const struct rank *rk = &m->rank[rank_of(m, b)];
	int g = bg_of(m, b);
	long t = max2(c->last_cmd + 1, n ? n->arrive : 0);

	switch (cmd) {
	case CMD_ACT:
		t = max2(t, max2(bk->next_act, rk->next_act[g]));
		return max2(t, rk->faw[rk->faw_i] + m->p.tFAW);
	case CMD_PRE:
		return max2(t, bk->next_pre);
	case CMD_RD:
		return max2(t, max2(bk->next_rd, rk->next_rd[g]));
	case CMD_WR:
		return max2(t, max2(bk->next_wr, rk->next_wr[g]));
	default:
		return t;
	}
}

/* The command bank b would issue next: first-ready in queue order, a row
 * hit ahead of an older miss at most HIT_BYPASS times in a row. */
static void bank_candidate(const struct ddr *m, const struct chan *c, int b, struct cand *out)
{
	const struct bank *bk = &m->bank[b];
	struct node *n = bk->head;

	if (bk->open_row >= 0 && n->row != bk->open_row && bk->bypass < HIT_BYPASS)
		for (struct node *x = n->next; x; x = x->next)
			if (x->row == bk->open_row) {
				n = x;
				break;
			}
	out->n = n;
	out->bank = b;
	out->rank = rank_of(m, b);
	if (bk->open_row == n->row)
		out->cmd = n->r->write ? CMD_WR : CMD_RD;
	else
		out->cmd = bk->open_row >= 0 ? CMD_PRE : CMD_ACT;
	out->at = ready_at(m, c, out->cmd, b, n);
}

/* Refresh of rank r once due: close its open banks, then REF. */
static void refresh_candidate(const struct ddr *m, const struct chan *c, int r, struct cand *out)
{
	long ref = max2(m->rank[r].next_ref, c->last_cmd + 1);

	out->n = NULL;
	out->rank = r;
	out->cmd = CMD_REF;
	out->bank = -1;
	for (int b = r * m->banks; b < (r + 1) * m->banks; b++) {
		const struct bank *bk = &m->bank[b];
		long at;

		if (bk->open_row < 0) {
			ref = max2(ref, bk->next_act);
			continue;
		}
		at = max2(max2(m->rank[r].next_ref, c->last_cmd + 1), bk->next_pre);
		if (out->cmd == CMD_REF || at < out->at) {
			out->cmd = CMD_PRE;
			out->bank = b;
			out->at = at;
		}
	}
	if (out->cmd == CMD_REF)
		out->at = ref;
}

static bool before(const struct cand *a, const struct cand *b)
{
	if (a->at != b->at)
		return a->at < b->at;
	if (!a->n || !b->n)
		return !a->n;		/* refresh first */
	return a->n->arrive < b->n->arrive;
}

static const struct cand *candidate(struct ddr *m, int ch)
{
	struct chan *c = &m->chan[ch];
	struct cand best = { .at = -1 }, x;

	if (c->cand_valid)
		return c->cand.at < 0 ? NULL : &c->cand;
	for (int i = 0; i < c->nactive; i++) {
		int b = c->active[i];

		bank_candidate(m, c, b, &x);
		/* Once its refresh is due, a rank issues nothing else. */
		if (x.at >= m->rank[x.rank].next_ref)
			refresh_candidate(m, c, x.rank, &x);
		if (best.at < 0 || before(&x, &best))
			best = x;
	}
	c->cand = best;
	c->cand_valid = true;
	return best.at < 0 ? NULL : &c->cand;
}

double ddr_next_event(struct ddr *m, int ch)
{
	const struct chan *c = &m->chan[ch];
	const struct cand *x = candidate(m, ch);
	long t = c->nfin ? c->fin[0].at : -1;

	if (x && (t < 0 || x->at < t))
		t = x->at;
	return t < 0 ? INFINITY : (double)t * m->p.tCK_s;
}

/* ---- issuing ---- */

static void finishing(struct ddr *m, struct chan *c, struct node *n, long at)
{
	int i;

	if (c->nfin == c->fincap) {
		int cap = c->fincap ? 2 * c->fincap : 16;
		struct fin *grown = realloc(c->fin, (size_t)cap * sizeof(*grown));

		if (!grown)
			dl_sim_error("out of memory");
		c->fin = grown;
		c->fincap = cap;
	}
	for (i = c->nfin; i > 0 && c->fin[i - 1].at > at; i--)
		c->fin[i] = c->fin[i - 1];
	c->fin[i] = (struct fin){ at, n };
	c->nfin++;
}

/* A request left its bank's command queue: the oldest waiting for that
 * bank takes the place. */
static void bank_remove(struct ddr *m, struct chan *c, struct node *n)
{
	struct bank *bk = &m->bank[n->bank];
	struct node **p = &bk->head, *prev = NULL;

	while (*p != n) {
		prev = *p;
		p = &(*p)->next;
	}
	*p = n->next;
	if (bk->tail == n)
		bk->tail = prev;
	if (--bk->queued == 0)
		deactivate(c, n->bank);
	for (struct node **w = &c->wait_head, *wp = NULL; *w; wp = *w, w = &(*w)->next) {
		if ((*w)->bank != n->bank)
			continue;
		struct node *x = *w;

		*w = x->next;
		if (c->wait_tail == x)
			c->wait_tail = wp;
		c->waiting--;
		bank_push(m, x);
		break;
	}
}

static void column(struct ddr *m, struct chan *c, const struct cand *x, long t)
{
	struct node *n = x->n;
	struct bank *bk = &m->bank[x->bank];
	bool write = x->cmd == CMD_WR;
	int r = x->rank, g = bg_of(m, x->bank), ch = ddr_channel_of(m, x->bank);

	for (int q = ch * m->ranks; q < (ch + 1) * m->ranks; q++) {
		struct rank *rk = &m->rank[q];

		for (int h = 0; h < m->p.bankgroups; h++) {
			if (q != r) {
				rk->next_rd[h] = max2(rk->next_rd[h], t + (write ? m->wtro : m->rtro));
				rk->next_wr[h] = max2(rk->next_wr[h], t + (write ? m->wtwo : m->rtwo));
			} else if (write) {
				rk->next_rd[h] = max2(rk->next_rd[h], t + (h == g ? m->wtrl : m->wtrs));
				rk->next_wr[h] = max2(rk->next_wr[h], t + (h == g ? m->wtwl : m->wtws));
			} else {
				rk->next_rd[h] = max2(rk->next_rd[h], t + (h == g ? m->rtrl : m->rtrs));
				rk->next_wr[h] = max2(rk->next_wr[h], t + m->rtw);
			}
		}
	}
	bk->next_pre = max2(bk->next_pre, t + (write ? m->wtp : m->rtp));
	if (n->act && !n->accessed)
		m->st.row_misses++;
	else
		m->st.row_hits++;
	if (n != bk->head)
		bk->bypass++;
	else
		bk->bypass = 0;
	n->accessed = true;
	n->col++;
	if (write)
		m->st.write_bytes += m->cfg.line_bytes;
	else
		m->st.read_bytes += m->cfg.line_bytes;
	if (n->r->start_s == 0 && n->left == (n->r->blocks > 0 ? n->r->blocks : 1))
		n->r->start_s = (double)t * m->p.tCK_s;
	if (--n->left == 0) {
		bank_remove(m, c, n);
		finishing(m, c, n, t + (write ? m->WL : m->RL) + m->burst);
	}
}

static void issue(struct ddr *m, int ch, const struct cand *x)
{
	struct chan *c = &m->chan[ch];
	long t = x->at;

	c->last_cmd = t;
	if (x->cmd == CMD_ACT) {
		struct bank *bk = &m->bank[x->bank];
		struct rank *rk = &m->rank[x->rank];
		int g = bg_of(m, x->bank);

		bk->open_row = x->n->row;
		bk->bypass = 0;
		bk->next_act = max2(bk->next_act, t + m->tRC);
		bk->next_pre = max2(bk->next_pre, t + m->p.tRAS);
		bk->next_rd = max2(bk->next_rd, t + m->p.tRCD - m->p.AL);
		bk->next_wr = max2(bk->next_wr, t + m->p.tRCD - m->p.AL);
		for (int h = 0; h < m->p.bankgroups; h++)
			rk->next_act[h] = max2(rk->next_act[h], t + (h == g ? m->p.tRRD_L : m->p.tRRD_S));
		rk->faw[rk->faw_i] = t;
		rk->faw_i = (rk->faw_i + 1) % 4;
		x->n->act = true;
		m->st.activates++;
	} else if (x->cmd == CMD_PRE) {
		struct bank *bk = &m->bank[x->bank];

		bk->open_row = -1;
		bk->bypass = 0;
		bk->next_act = max2(bk->next_act, t + m->p.tRP);
	} else if (x->cmd == CMD_REF) {
		struct rank *rk = &m->rank[x->rank];

		for (int b = x->rank * m->banks; b < (x->rank + 1) * m->banks; b++)
			m->bank[b].next_act = max2(m->bank[b].next_act, t + m->p.tRFC);
		rk->next_ref += m->p.tREFI;
		m->st.refreshes++;
	} else {
		column(m, c, x, t);
	}
	c->cand_valid = false;
}

static void complete(struct ddr *m, struct chan *c, void (*done)(void *, struct memdev_req *),
		     void *arg)
{
	struct fin f = c->fin[0];
	struct memdev_req *r = f.n->r;
	double lat;

	memmove(c->fin, c->fin + 1, (size_t)(--c->nfin) * sizeof(*c->fin));
	busy_change(m, f.n->bank, -1, f.at);
	r->done_s = (double)f.at * m->p.tCK_s;
	lat = r->done_s - r->arrive_s;
	if (r->write)
		m->st.writes++;
	else
		m->st.reads++;
	m->st.bytes += (double)m->cfg.line_bytes * (r->blocks > 0 ? r->blocks : 1);
	m->st.latency_sum_s += lat;
	if (lat > m->st.latency_max_s)
		m->st.latency_max_s = lat;
	f.n->next = m->pool;
	m->pool = f.n;
	done(arg, r);
}

void ddr_advance(struct ddr *m, int ch, double now,
		 void (*done)(void *arg, struct memdev_req *r), void *arg)
{
	struct chan *c = &m->chan[ch];
	long until = cycle_until(m, now);

	for (;;) {
		const struct cand *x = candidate(m, ch);
		long f = c->nfin ? c->fin[0].at : -1;

		if (f >= 0 && f <= until && (!x || f <= x->at))
			complete(m, c, done, arg);
		else if (x && x->at <= until)
			issue(m, ch, x);
		else
			break;
	}
}
