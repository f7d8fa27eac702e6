/* SPDX-License-Identifier: MIT */
/*
 * The device: channels of one kind, the address map, the accounting common
 * to both kinds and the event loops.  Busy time (for bandwidth over busy
 * time, CLP and BLP) counts a bank, a channel or the device as busy from a
 * request's arrival to its completion (account.c).
 */
#include "memdev.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chan.h"

/* ---- time ---- */

/*
 * How far a time in cycles, x = s / tCK, may lie from the value it stands
 * for: a millionth of a cycle, or the rounding of a double holding x (a
 * few units in its last place), whichever is larger.  A time computed as
 * (e + 1/2) tCK comes back as cycle e at any clock: with the millionth
 * alone, past some 4.5 s of 1 ns cycles the rounding exceeded it, a
 * channel's next event came back as the cycle before, and an actor
 * waiting for it woke forever at the same date.
 */
static double slack(double x)
{
	double r = fabs(x) * 8 * DBL_EPSILON;

	return r > 1e-6 ? r : 1e-6;
}

static int64_t cyc_ceil(const struct memdev *d, double s)
{
	double c, x;

	if (!(s > 0))
		return 0;
	x = s / d->cycle_s;
	c = ceil(x - slack(x));
	return c >= 9e18 ? MD_NEVER : (int64_t)c;
}

/* The last cycle done by time s: cycle e is done at (e + 1/2) tCK, so
 * that a request handed over at e tCK, by any actor, arrives at cycle e,
 * and one handed over in reaction to what happened at cycle e arrives at
 * e + 1 (as DRAMsim3's CPU adds after the controller's tick). */
static int64_t cyc_done(const struct memdev *d, double s)
{
	double c, x;

	if (!(s >= 0))
		return -1;
	x = s / d->cycle_s;
	c = floor(x - 0.5 + slack(x));
	return c >= 9e18 ? MD_NEVER - 1 : (int64_t)c;
}

static double sec(const struct memdev *d, int64_t c)
{
	return c >= MD_NEVER ? INFINITY : c * d->cycle_s;
}

/* ---- opening ---- */

struct memdev *memdev_open(const struct memdev_config *cfg)
{
	struct memdev *d = calloc(1, sizeof(*d));
	int nbanks;

	if (!d)
		return NULL;
	d->cfg = *cfg;
	d->kind = cfg->kind == MEMDEV_NVM ? &md_nvm : &md_ddr;
	d->cycle_s = cfg->tCK_ns * 1e-9;
	d->next_s = NAN;	/* no time given yet */
	d->nch = cfg->channels;
	d->banks_per_ch = cfg->ranks * cfg->banks;
	nbanks = d->nch * d->banks_per_ch;
	for (int f = 0; f < MF_FIELDS; f++) {
		d->fshift[f] = cfg->offset_bits + cfg->shift[f];
		d->fmask[f] = (1ULL << cfg->bits[f]) - 1;
	}
	/* Every request is checked: no division there. */
	if (cfg->block_bytes > 0 && !(cfg->block_bytes & (cfg->block_bytes - 1)))
		d->align_mask = (uint64_t)cfg->block_bytes - 1;
	if (cfg->kind == MEMDEV_DDR && cfg->BL > 0)
		d->row_blocks = (unsigned)(cfg->columns / cfg->BL);
	d->ch = calloc(d->nch, sizeof(*d->ch));
	d->bank_out = calloc(nbanks, sizeof(*d->bank_out));
	d->bank_since = calloc(nbanks, sizeof(*d->bank_since));
	if (!d->ch || !d->bank_out || !d->bank_since)
		goto fail;
	for (int i = 0; i < d->nch; i++) {
		d->ch[i].d = d;
		d->ch[i].index = i;
		d->ch[i].impl = d->kind->open(&d->ch[i]);
		if (!d->ch[i].impl)
			goto fail;
	}
	return d;
fail:
	memdev_close(d);
	return NULL;
}

void memdev_close(struct memdev *d)
{
	if (!d)
		return;
	for (int i = 0; d->ch && i < d->nch; i++) {
		if (d->ch[i].impl)
			d->kind->free(d->ch[i].impl);
		free(d->ch[i].iv.v);
	}
	free(d->ch);
	free(d->bank_out);
	free(d->bank_since);
	free(d);
}

const struct memdev_config *memdev_config(const struct memdev *d)
{
	return &d->cfg;
}

int memdev_channels(const struct memdev *d)
{
	return d->nch;
}

int memdev_banks(const struct memdev *d)
{
	return d->nch * d->banks_per_ch;
}

/* ---- addresses ---- */

int memdev_bank_index(const struct memdev *d, const struct memdev_addr *a)
{
	const struct memdev_config *c = &d->cfg;

	return (a->ch * c->ranks + a->rk) * c->banks + a->bg * c->banks_per_group + a->ba;
}

int memdev_channel_of(const struct memdev *d, int bank)
{
	return bank / d->banks_per_ch;
}

static uint64_t field(const struct memdev *d, uint64_t addr, enum memdev_field f)
{
	return (addr >> d->fshift[f]) & d->fmask[f];
}

/* The bits of field f holding v (its low bits, as many as the field has). */
static uint64_t put(const struct memdev *d, uint64_t v, enum memdev_field f)
{
	return (v & d->fmask[f]) << d->fshift[f];
}

/* NVM: the unit (page or line) picks the bank, channels fastest. */
static void nvm_decode(const struct memdev_config *c, uint64_t addr, struct memdev_addr *a)
{
	uint64_t unit = addr / (c->interleave == MEMDEV_LINE ? (uint64_t)c->line_bytes :
							       (uint64_t)c->page_bytes);
	uint64_t g = unit % ((uint64_t)c->channels * c->ranks * c->banks), rest;

	memset(a, 0, sizeof(*a));
	a->ch = (int)(g % c->channels);
	rest = g / c->channels;
	a->rk = (int)(rest % c->ranks);
	a->ba = (int)(rest / c->ranks);
}

void memdev_decode(const struct memdev *d, uint64_t addr, struct memdev_addr *a)
{
	const struct memdev_config *c = &d->cfg;

	if (c->kind == MEMDEV_NVM) {
		nvm_decode(c, addr, a);
		return;
	}
	a->ch = (int)field(d, addr, MF_CH);
	a->rk = (int)field(d, addr, MF_RA);
	a->bg = (int)field(d, addr, MF_BG);
	a->ba = (int)field(d, addr, MF_BA);
	a->row = (long)field(d, addr, MF_RO);
	a->col = (int)field(d, addr, MF_CO);
}

uint64_t memdev_encode(const struct memdev *d, const struct memdev_addr *a)
{
	const struct memdev_config *c = &d->cfg;

	if (c->kind == MEMDEV_NVM) {
		uint64_t unit = c->interleave == MEMDEV_LINE ? (uint64_t)c->line_bytes :
							       (uint64_t)c->page_bytes;
		uint64_t g = ((uint64_t)a->ba * c->ranks + a->rk) * c->channels + a->ch;

		return g * unit;
	}
	return put(d, (uint64_t)a->ch, MF_CH) | put(d, (uint64_t)a->rk, MF_RA) |
	       put(d, (uint64_t)a->bg, MF_BG) | put(d, (uint64_t)a->ba, MF_BA) |
	       put(d, (uint64_t)a->row, MF_RO) | put(d, (uint64_t)a->col, MF_CO);
}

int memdev_bank_of(const struct memdev *d, uint64_t addr)
{
	struct memdev_addr a;

	memdev_decode(d, addr, &a);
	return memdev_bank_index(d, &a);
}

int memdev_bank_pending(const struct memdev *d, int bank)
{
	return bank >= 0 && bank < memdev_banks(d) ? d->bank_out[bank] : 0;
}

long memdev_outstanding(const struct memdev *d)
{
	long n = 0;

	for (int i = 0; i < d->nch; i++)
		n += d->ch[i].out;
	return n;
}

/* ---- requests ---- */

static bool misaligned(const struct memdev *d, uint64_t addr)
{
	if (d->align_mask)
		return addr & d->align_mask;
	return addr % d->cfg.block_bytes;
}

/* Whether n blocks from place `a` (in the device) are one request. */
static const char *span_fits(const struct memdev *d, const struct memdev_addr *a, unsigned n)
{
	if (d->cfg.kind == MEMDEV_NVM)
		return n == 1 ? NULL : "an NVM request is one line";
	if ((unsigned)a->col + n > d->row_blocks)
		return "blocks beyond the end of the row";
	return NULL;
}

/* Why `r` cannot be taken (NULL if it can), with its place in *a. */
const char *memdev_place(const struct memdev *d, const struct memdev_req *r,
			 struct memdev_addr *a)
{
	const struct memdev_config *c = &d->cfg;
	unsigned n = r->blocks ? r->blocks : 1;

	if ((double)r->addr + (double)n * c->block_bytes > c->capacity_bytes)
		return "address beyond the device";
	memdev_decode(d, r->addr, a);
	if (c->kind == MEMDEV_DDR && misaligned(d, r->addr))
		return "address not aligned to a block";
	return span_fits(d, a, n);
}

const char *memdev_locate(const struct memdev *d, const struct memdev_addr *a, unsigned blocks,
			  uint64_t *addr)
{
	const struct memdev_config *c = &d->cfg;
	const char *why;

	if (a->ch < 0 || a->ch >= c->channels || a->rk < 0 || a->rk >= c->ranks)
		return "no such channel or rank";
	if (c->kind == MEMDEV_NVM) {
		if (a->ba < 0 || a->ba >= c->banks || a->bg || a->row || a->col)
			return "no such bank";
	} else {
		if (a->bg < 0 || a->bg >= c->bankgroups || a->ba < 0 || a->ba >= c->banks_per_group)
			return "no such bank";
		if (a->row < 0 || a->row >= c->rows)
			return "no such row";
		if (a->col < 0)
			return "blocks beyond the end of the row";
	}
	why = span_fits(d, a, blocks ? blocks : 1);
	if (!why)
		*addr = memdev_encode(d, a);
	return why;
}

bool memdev_room(const struct memdev *d, const struct memdev_addr *a, bool write)
{
	return d->kind->room(&d->ch[a->ch], write);
}

const char *memdev_check(const struct memdev *d, const struct memdev_req *r)
{
	struct memdev_addr a;

	return memdev_place(d, r, &a);
}

bool memdev_can_accept(const struct memdev *d, const struct memdev_req *r)
{
	struct memdev_addr a;

	return !memdev_place(d, r, &a) && memdev_room(d, &a, r->write);
}

int memdev_enqueue(struct memdev *d, struct memdev_req *r, double now)
{
	struct memdev_addr a;

	if (memdev_place(d, r, &a) || !memdev_room(d, &a, r->write))
		return -1;
	memdev_enqueue_placed(d, r, &a, now);
	return 0;
}

void memdev_enqueue_placed(struct memdev *d, struct memdev_req *r, const struct memdev_addr *a,
			   double now)
{
	md_enqueue_cycle(d, r, a, cyc_ceil(d, now));
}

void md_enqueue_cycle(struct memdev *d, struct memdev_req *r, const struct memdev_addr *a,
		      int64_t t)
{
	struct md_chan *c = &d->ch[a->ch];

	if (t < c->clk)
		t = c->clk;	/* that cycle is already done: the next one */
	if (t > d->last_cyc)
		d->last_cyc = t;
	r->arrive_cyc = t;
	r->arrive_s = sec(d, t);
	r->done_s = NAN;
	r->bank = memdev_bank_index(d, a);
	r->row = a->row;
	r->col = a->col;
	r->next = NULL;
	md_busy_start(c, r->bank, t);
	d->kind->accept(c, r);
}

/* ---- event loops ---- */

static inline int64_t chan_next(const struct memdev *d, struct md_chan *c)
{
	if (c->next_ok)
		return c->next_at > c->clk ? c->next_at : c->clk;
	return d->kind->next(c);
}

double memdev_next_event(const struct memdev *d, int ch)
{
	struct md_chan *c = &d->ch[ch];

	return sec(d, chan_next(d, c)) + d->cycle_s / 2;
}

double memdev_next_event_all(struct memdev *d)
{
	int64_t c = md_next_all(d);

	if (c == MD_NEVER)
		return INFINITY;
	d->next_s = sec(d, c) + d->cycle_s / 2;
	d->next_cyc = c;
	return d->next_s;
}

int64_t md_next_all(const struct memdev *d)
{
	int64_t t = MD_NEVER;

	for (int i = 0; i < d->nch; i++) {
		int64_t e = chan_next(d, &d->ch[i]);

		if (e < t)
			t = e;
	}
	return t;
}

static void run_channel(struct memdev *d, struct md_chan *c, int64_t until)
{
	int64_t e;

	while ((e = chan_next(d, c)) <= until) {
		if (d->cfg.step_every_cycle && e < MD_NEVER)
			e = c->clk;
		c->clk = e + 1;
		d->kind->step(c, e);
	}
	if (c->clk < until + 1)
		c->clk = until + 1;
}

void memdev_advance(struct memdev *d, int ch, double now, memdev_done_fn done, void *arg)
{
	int64_t until = cyc_done(d, now);

	if (until < 0)
		return;
	if (until > d->last_cyc)
		d->last_cyc = until;
	d->done = done;
	d->done_arg = arg;
	run_channel(d, &d->ch[ch], until);
	d->done = NULL;
}

/* Channels in time order, so that a callback's new request reaches any
 * channel at its own time. */
static void run_channels(struct memdev *d, int64_t until)
{
	/* Read once: the steps cannot change them, but the compiler would
	 * not know it. */
	struct md_chan *ch = d->ch, *end = ch + d->nch, *c, *bc;
	bool every = d->cfg.step_every_cycle;
	void (*step)(struct md_chan *c, int64_t e) = d->kind->step;

	for (;;) {
		int64_t best = MD_NEVER, e;

		bc = NULL;
		for (c = ch; c < end; c++) {
			e = chan_next(d, c);
			if (every && e < MD_NEVER)
				e = c->clk;
			if (e < best) {
				best = e;
				bc = c;
			}
		}
		if (!bc || best > until)
			break;
		bc->clk = best + 1;
		step(bc, best);
	}
	for (c = ch; c < end; c++)
		if (c->clk < until + 1)
			c->clk = until + 1;
}

void md_run_all(struct memdev *d, int64_t until, memdev_done_fn done, void *arg)
{
	if (until < 0)
		return;
	if (until > d->last_cyc)
		d->last_cyc = until;
	d->done = done;
	d->done_arg = arg;
	if (d->nch == 1)
		run_channel(d, &d->ch[0], until);
	else
		run_channels(d, until);
	d->done = NULL;
}

/* A caller usually advances to the time memdev_next_event_all() just gave:
 * its cycle is known, exact even where converting back would round. */
void memdev_advance_all(struct memdev *d, double now, memdev_done_fn done, void *arg)
{
	md_run_all(d, now == d->next_s ? d->next_cyc : cyc_done(d, now), done, arg);
}

/* ---- statistics ---- */

void memdev_stats(struct memdev *d, double now, struct memdev_stats *s)
{
	memdev_stats_cycles(d, cyc_done(d, now) + 1, s);
}

void memdev_stats_cycles(struct memdev *d, int64_t cycles, struct memdev_stats *s)
{
	int64_t end = cycles, chan_busy = 0, bank_busy = d->bank_busy;

	if (end < 0)
		end = 0;
	/* A channel advanced past `now` may have served requests after it:
	 * what the channels count, the union and the elapsed time count too. */
	for (int i = 0; i < d->nch; i++) {
		const struct md_intervals *iv = &d->ch[i].iv;

		if (iv->n && iv->v[(iv->head + iv->n - 1) % iv->cap][1] > end)
			end = iv->v[(iv->head + iv->n - 1) % iv->cap][1];
	}
	if (end > d->last_cyc)
		d->last_cyc = end;
	/* Every channel was advanced to `end`: the union is known to it. */
	md_merge_until(d, end);
	for (int i = 0; i < d->nch; i++) {
		const struct md_chan *c = &d->ch[i];

		chan_busy += c->busy + (c->out ? end - c->since : 0);
	}
	for (int b = 0; b < memdev_banks(d); b++)
		if (d->bank_out[b])
			bank_busy += end - d->bank_since[b];
	memset(s, 0, sizeof(*s));
	s->cycle_s = d->cycle_s;
	s->elapsed_s = sec(d, end);
	s->elapsed_cycles = end;
	s->requests = d->requests;
	s->reads = d->reads;
	s->writes = d->writes;
	s->bytes = d->bytes;
	s->acts = d->acts;
	s->pres = d->pres;
	s->refs = d->refs;
	s->row_hits = d->row_hits;
	s->busy_s = sec(d, d->union_busy);
	s->channel_busy_s = sec(d, chan_busy);
	s->bank_busy_s = sec(d, bank_busy);
	s->bw_busy_Bps = s->busy_s > 0 ? s->bytes / s->busy_s : 0;
	s->bw_total_Bps = s->elapsed_s > 0 ? s->bytes / s->elapsed_s : 0;
	s->row_hit_rate = s->reads + s->writes ? (double)s->row_hits / (s->reads + s->writes) : 0;
	s->clp = s->busy_s > 0 ? s->channel_busy_s / s->busy_s : 0;
	s->blp = s->busy_s > 0 ? s->bank_busy_s / s->busy_s : 0;
	s->latency_mean_s = d->requests ? d->lat_sum / d->requests * d->cycle_s : 0;
	s->latency_max_s = sec(d, d->lat_max);
	memcpy(s->hist, d->hist, sizeof(s->hist));
}
