/* SPDX-License-Identifier: MIT */
#include "pmc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"

#define LINE 64

static double now(const struct dlasim_pm_ctx *c)
{
	return c->env.now(c->env.arg);
}

int pmc_violation(struct dlasim_pm_ctx *c, enum pmc_culprit who, const struct pm_tx *tx,
		  const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (c->violated)
		return DLASIM_ERR;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->violated = true;
	c->culprit = who;
	if (tx)
		snprintf(c->why, sizeof(c->why), "transaction %ld (core %d): %s", tx->pub.id,
			 tx->pub.core, msg);
	else
		snprintf(c->why, sizeof(c->why), "%s", msg);
	return DLASIM_ERR;
}

/* ---- set-up ---- */

int pmc_init(struct dlasim_pm_ctx *c, const struct pmc_config *cfg, const struct pmc_env *env,
	     const struct dlasim_pm_ops *ops, void *state, struct dlasim_la_ctx *la)
{
	*c = (struct dlasim_pm_ctx){ .env = *env, .ops = ops, .state = state, .la = la,
				     .cores = cfg->cores, .dram_latency_s = cfg->dram_latency_s };
	c->features = ops->features ? ops->features(state) : 0;
	c->cap[DLASIM_PM_ADR] = cfg->adr;
	c->cap[DLASIM_PM_STAGE] = c->features & DLASIM_PM_USES_STAGE ? cfg->staging : 0;
	c->cap[DLASIM_PM_VBUF] = c->features & DLASIM_PM_USES_VBUF ? cfg->adr : 0;
	c->cap[DLASIM_PM_LOGQ] = c->features & DLASIM_PM_USES_LOGQ ? cfg->logq : 0;
	c->vbuf_used = calloc((size_t)c->cores, sizeof(*c->vbuf_used));
	c->cur = calloc((size_t)c->cores, sizeof(*c->cur));
	c->waits = calloc((size_t)c->cores, sizeof(*c->waits));
	c->stall_order = calloc((size_t)c->cores, sizeof(*c->stall_order));
	c->ev_cap = 64;
	c->ev = malloc((size_t)c->ev_cap * sizeof(*c->ev));
	if (!c->vbuf_used || !c->cur || !c->waits || !c->stall_order || !c->ev) {
		pmc_free(c);
		return dl_err("out of memory");
	}
	if ((c->features & DLASIM_PM_DRAM_CACHE) &&
	    nvm_cache_init(&c->dram, cfg->dram_cache_bytes, cfg->dram_cache_ways)) {
		pmc_free(c);
		return -1;
	}
	return 0;
}

void pmc_free(struct dlasim_pm_ctx *c)
{
	struct pm_tx *t = c->head, *next;
	struct pmc_op *o = c->all_ops, *onext;

	for (; t; t = next) {
		struct pm_record *r = t->recs, *rnext;

		next = t->next;
		for (; r; r = rnext) {
			rnext = r->next;
			free(r);
		}
		free(t->line);
		free(t);
	}
	/* In flight at the NVM or not: the run is over. */
	for (; o; o = onext) {
		onext = o->next_all;
		free(o);
	}
	nvm_cache_free(&c->dram);
	free(c->vbuf_used);
	free(c->cur);
	free(c->waits);
	free(c->stall_order);
	free(c->ev);
	c->head = NULL;
	c->free_ops = NULL;
	c->all_ops = NULL;
	c->vbuf_used = NULL;
	c->cur = NULL;
	c->waits = NULL;
	c->stall_order = NULL;
	c->ev = NULL;
}

struct pm_tx *pmc_find_tx(const struct dlasim_pm_ctx *c, const struct dlasim_pm_tx *t)
{
	for (struct pm_tx *x = c->head; x; x = x->next)
		if (&x->pub == t)
			return x;
	return NULL;
}

/* ---- events ---- */

void pmc_event(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, enum dlasim_pm_event ev)
{
	if (c->ev_len == c->ev_cap) {
		struct pm_event *grown = malloc(2 * (size_t)c->ev_cap * sizeof(*grown));

		if (!grown) {
			pmc_violation(c, PMC_PERSIST, tx, "out of memory for events");
			return;
		}
		for (int i = 0; i < c->ev_len; i++)
			grown[i] = c->ev[(c->ev_head + i) % c->ev_cap];
		free(c->ev);
		c->ev = grown;
		c->ev_head = 0;
		c->ev_cap *= 2;
	}
	c->ev[(c->ev_head + c->ev_len++) % c->ev_cap] = (struct pm_event){ tx, k, ev };
	tx->refs++;
}

bool pmc_next_event(struct dlasim_pm_ctx *c, struct pm_event *out)
{
	if (!c->ev_len)
		return false;
	*out = c->ev[c->ev_head];
	c->ev_head = (c->ev_head + 1) % c->ev_cap;
	c->ev_len--;
	out->tx->refs--;
	return true;
}

/* ---- NVM operations ---- */

static struct pmc_op *new_op(struct dlasim_pm_ctx *c, enum pmc_op_kind kind, bool write,
			     long addr, struct pm_tx *tx, int k, struct pm_record *rec)
{
	struct pmc_op *op = c->free_ops, *all;

	if (op) {
		c->free_ops = op->next;
		all = op->next_all;
	} else if ((op = malloc(sizeof(*op)))) {
		all = c->all_ops;
		c->all_ops = op;
	} else {
		pmc_violation(c, PMC_PERSIST, tx, "out of memory for NVM operations");
		return NULL;
	}
	*op = (struct pmc_op){ .kind = kind, .write = write, .addr = addr, .tx = tx, .k = k,
			       .rec = rec, .t0 = now(c), .core = tx ? tx->pub.core : -1,
			       .next_all = all };
	return op;
}

static void start(struct dlasim_pm_ctx *c, struct pmc_op *op)
{
	if (!op)
		return;
	if (op->tx)
		op->tx->ops++;
	c->st.ops[op->kind]++;
	c->env.issue(c->env.arg, op);
}

static void issue(struct dlasim_pm_ctx *c, enum pmc_op_kind kind, bool write, long addr,
		  struct pm_tx *tx, int k, struct pm_record *rec)
{
	start(c, new_op(c, kind, write, addr, tx, k, rec));
}

/* ---- transactions and lines ---- */

struct pm_tx *pmc_tx_begin(struct dlasim_pm_ctx *c, int core)
{
	struct pm_tx *tx = calloc(1, sizeof(*tx));

	if (!tx)
		return NULL;
	tx->pub.size = sizeof(tx->pub);
	tx->pub.id = c->next_id++;
	tx->pub.core = core;
	tx->pub.start_s = now(c);
	tx->prev = c->tail;
	if (c->tail)
		c->tail->next = tx;
	else
		c->head = tx;
	c->tail = tx;
	c->cur[core] = tx;
	return tx;
}

int pmc_add_line(struct dlasim_pm_ctx *c, struct pm_tx *tx, long addr)
{
	int k = tx->pub.lines;

	if (k == tx->cap) {
		int cap = tx->cap ? 2 * tx->cap : 16;
		struct pm_line *grown = realloc(tx->line, (size_t)cap * sizeof(*grown));

		if (!grown)
			return -1;
		tx->line = grown;
		tx->cap = cap;
	}
	tx->line[k] = (struct pm_line){ .pub = { .addr = addr }, .entry = -1, .tx = tx, .k = k };
	tx->pub.lines++;
	tx->pub.in[DLASIM_PM_NONE]++;
	return k;
}

static bool is_buffer(enum dlasim_pm_place p)
{
	return p == DLASIM_PM_ADR || p == DLASIM_PM_STAGE || p == DLASIM_PM_VBUF ||
	       p == DLASIM_PM_LOGQ;
}

int pmc_room(const struct dlasim_pm_ctx *c, enum dlasim_pm_place where, int core)
{
	switch (where) {
	case DLASIM_PM_ADR:
		return c->cap[where] - c->used[where] - c->adr_headers;
	case DLASIM_PM_VBUF:
		return core >= 0 && core < c->cores ? c->cap[where] - c->vbuf_used[core] : 0;
	case DLASIM_PM_STAGE:
	case DLASIM_PM_LOGQ:
		return c->cap[where] - c->used[where];
	default:
		return 0;
	}
}

static void count(struct dlasim_pm_ctx *c, struct pm_tx *tx, enum dlasim_pm_place p, int d)
{
	tx->pub.in[p] += d;
	if (!is_buffer(p))
		return;
	c->used[p] += d;
	if (p == DLASIM_PM_VBUF)
		c->vbuf_used[tx->pub.core] += d;
	if (p == DLASIM_PM_ADR && !tx->pub.committed)
		c->speculative += d;
	if (d < 0)
		c->space_freed = true;
}

void pmc_move(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, enum dlasim_pm_place to)
{
	struct pm_line *l = &tx->line[k];

	count(c, tx, l->pub.place, -1);
	count(c, tx, to, +1);
	l->pub.place = to;
	if (to != DLASIM_PM_ADR)
		l->pub.flushable = false;
	if (to == DLASIM_PM_DRAM && (c->features & DLASIM_PM_DRAM_CACHE))
		nvm_cache_access(&c->dram, l->pub.addr / LINE, true);
}

/* ---- log records ---- */

static void entry_request(struct dlasim_pm_ctx *c, struct pm_line *l);
static void header_request(struct dlasim_pm_ctx *c, struct pm_record *r);

/* Lines of a durable record whose entries persisted are durable. */
static void record_progress(struct dlasim_pm_ctx *c, struct pm_record *r)
{
	if (!r->closed)
		return;
	if (!r->durable && !r->blom && r->hdr == HDR_NONE && r->persisted == r->n)
		header_request(c, r);
	if (!r->durable)
		return;
	for (int i = 0; i < r->n; i++) {
		struct pm_line *l = &r->tx->line[r->k[i]];

		if (l->pub.log_state != DLASIM_PM_LOG_PERSISTED)
			continue;
		l->pub.log_state = DLASIM_PM_LOG_DURABLE;
		r->tx->pub.logs_undurable--;
		pmc_event(c, r->tx, l->k, DLASIM_PM_EV_DURABLE);
	}
}

static struct pm_tx *blom_victim(const struct dlasim_pm_ctx *c)
{
	for (struct pm_tx *t = c->head; t; t = t->next)
		for (struct pm_record *r = t->recs; r; r = r->next)
			if (r->hdr == HDR_BUFFERED)
				return t;
	return NULL;
}

static void blom_take(struct dlasim_pm_ctx *c, struct pm_record *r)
{
	int nb = la_slot_blocks(c->la, DLASIM_LA_HEADER);

	c->adr_headers += nb;
	r->hdr = HDR_BUFFERED;
	r->durable = true;
	c->st.headers_buffered++;
}

/* BLOM: keep the header in the ADR; when the ADR is full, write the
 * buffered headers of the oldest transaction holding some to NVM and wait
 * for their entries (with none to write, the header goes to NVM itself). */
static void blom_buffer(struct dlasim_pm_ctx *c, struct pm_record *r)
{
	int nb = la_slot_blocks(c->la, DLASIM_LA_HEADER);
	struct pm_tx *victim;

	r->blom = true;
	if (!c->adr_q && pmc_room(c, DLASIM_PM_ADR, -1) >= nb) {
		blom_take(c, r);
		return;
	}
	victim = blom_victim(c);
	if (!victim) {
		r->blom = false;	/* written after its entries, as without BLOM */
		return;
	}
	for (struct pm_record *v = victim->recs; v; v = v->next) {
		if (v->hdr != HDR_BUFFERED)
			continue;
		c->st.header_spills++;
		header_request(c, v);
	}
	r->hdr = HDR_ADR_WAIT;
	if (c->adr_q_tail)
		c->adr_q_tail->qnext = r;
	else
		c->adr_q = r;
	c->adr_q_tail = r;
}

/* Give freed ADR entries to headers waiting for them, oldest first. */
static void blom_serve(struct dlasim_pm_ctx *c)
{
	int nb = la_slot_blocks(c->la, DLASIM_LA_HEADER);

	while (c->adr_q && pmc_room(c, DLASIM_PM_ADR, -1) >= nb) {
		struct pm_record *r = c->adr_q;

		c->adr_q = r->qnext;
		if (!c->adr_q)
			c->adr_q_tail = NULL;
		r->qnext = NULL;
		blom_take(c, r);
		record_progress(c, r);
	}
}

void pmc_close_record(struct dlasim_pm_ctx *c, struct pm_tx *tx)
{
	struct pm_record *r = tx->open;

	if (!r)
		return;
	tx->open = NULL;
	r->closed = true;
	if (c->features & DLASIM_PM_BLOM)
		blom_buffer(c, r);
	record_progress(c, r);
}

static struct pm_record *open_record(struct dlasim_pm_ctx *c, struct pm_tx *tx)
{
	struct pm_record *r;

	if (tx->open)
		return tx->open;
	r = calloc(1, sizeof(*r));
	if (!r) {
		pmc_violation(c, PMC_PERSIST, tx, "out of memory for log records");
		return NULL;
	}
	r->tx = tx;
	r->addr = -1;
	r->next = tx->recs;
	tx->recs = r;
	tx->open = r;
	return r;
}

void pmc_log(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, enum dlasim_pm_log kind)
{
	struct pm_line *l = &tx->line[k];
	struct pm_record *r = open_record(c, tx);

	if (!r)
		return;
	l->pub.log = kind;
	l->pub.log_state = DLASIM_PM_LOG_ISSUED;
	l->rec = r;
	r->k[r->n++] = k;
	tx->pub.logs_issued++;
	tx->pub.logs_inflight++;
	tx->pub.logs_undurable++;
	if (r->n == DLASIM_PM_RECORD_ENTRIES)
		pmc_close_record(c, tx);
	if (kind == DLASIM_PM_UNDO)
		issue(c, PMC_OP_OLD, false, l->pub.addr, tx, k, NULL);
	else
		entry_request(c, l);
}

static void slot_wrong(struct dlasim_pm_ctx *c, struct pm_tx *tx)
{
	pmc_violation(c, PMC_LOG_ALLOC, tx, "%s", c->la->why);
}

static void entry_request(struct dlasim_pm_ctx *c, struct pm_line *l)
{
	long addr;

	if (!l->slot_wait)
		l->t0 = now(c);
	addr = la_alloc(c->la, DLASIM_LA_ENTRY);
	if (addr == -2) {
		slot_wrong(c, l->tx);
		return;
	}
	if (addr == -1) {
		if (!l->slot_wait) {
			l->slot_wait = true;
			if (c->slot_q_tail)
				c->slot_q_tail->qnext = l;
			else
				c->slot_q = l;
			c->slot_q_tail = l;
		}
		return;
	}
	l->slot_wait = false;
	l->entry = addr;
	c->st.entries++;
	issue(c, PMC_OP_ENTRY, true, addr, l->tx, l->k, NULL);
}

static void header_request(struct dlasim_pm_ctx *c, struct pm_record *r)
{
	bool queued = r->hdr == HDR_SLOT;
	int nb = la_slot_blocks(c->la, DLASIM_LA_HEADER);
	long addr = la_alloc(c->la, DLASIM_LA_HEADER);

	if (!queued)
		r->t_hdr = now(c);	/* a wait for a slot counts, as an entry's */
	if (addr == -2) {
		slot_wrong(c, r->tx);
		return;
	}
	if (addr == -1) {
		if (!queued) {
			r->hdr = HDR_SLOT;
			if (c->hslot_q_tail)
				c->hslot_q_tail->qnext = r;
			else
				c->hslot_q = r;
			c->hslot_q_tail = r;
		}
		return;
	}
	r->addr = addr;
	r->hdr = HDR_WRITING;
	r->blocks_left = nb;
	for (int b = 0; b < nb; b++)
		issue(c, PMC_OP_HEADER, true, la_slot_block(c->la, addr, b), r->tx, -1, r);
}

/* Slots were released: serve the log writes waiting for one, in order,
 * until the allocator has none again. */
static void slots_serve(struct dlasim_pm_ctx *c)
{
	while (c->slot_q && !c->violated) {
		struct pm_line *l = c->slot_q;

		entry_request(c, l);
		if (l->slot_wait)
			break;
		c->slot_q = l->qnext;
		if (!c->slot_q)
			c->slot_q_tail = NULL;
		l->qnext = NULL;
	}
	while (c->hslot_q && !c->violated) {
		struct pm_record *r = c->hslot_q;

		header_request(c, r);
		if (r->hdr == HDR_SLOT)
			break;
		c->hslot_q = r->qnext;
		if (!c->hslot_q)
			c->hslot_q_tail = NULL;
		r->qnext = NULL;
	}
}

/* ---- in place, commit ---- */

void pmc_home_write(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k)
{
	tx->line[k].pub.home_issued = true;
	tx->pub.homes_inflight++;
	issue(c, PMC_OP_HOME, true, tx->line[k].pub.addr, tx, k, NULL);
}

static enum pm_exec exec_type(const struct dlasim_pm_ctx *c, const struct pm_tx *tx)
{
	if (tx->pub.lines > c->cap[DLASIM_PM_ADR])
		return PM_NECESSARY;
	return tx->pub.logs_issued ? PM_UNNECESSARY : PM_DIRECT;
}

void pmc_commit(struct dlasim_pm_ctx *c, struct pm_tx *tx)
{
	double lat = now(c) - tx->pub.end_s;

	c->speculative -= tx->pub.in[DLASIM_PM_ADR];
	tx->pub.committed = true;
	c->cur[tx->pub.core] = NULL;
	c->st.committed++;
	c->st.exec[exec_type(c, tx)]++;
	if (exec_type(c, tx) == PM_UNNECESSARY)
		c->st.unnecessary_entries += tx->pub.logs_issued;
	c->st.commit_latency_s += lat;
	if (lat > c->st.commit_latency_max_s)
		c->st.commit_latency_max_s = lat;
	for (int k = 0; k < tx->pub.lines; k++) {
		struct pm_line *l = &tx->line[k];

		if (l->pub.place == DLASIM_PM_ADR) {
			l->pub.flushable = true;
			l->pub.home_issued = true;
			issue(c, PMC_OP_DRAIN, true, l->pub.addr, tx, k, NULL);
		} else if (l->pub.place == DLASIM_PM_DRAM) {
			l->pub.home_issued = true;
			issue(c, PMC_OP_INPLACE, true, l->pub.addr, tx, k, NULL);
		}
	}
	if (c->waits[tx->pub.core] == CORE_ENDING) {
		c->waits[tx->pub.core] = CORE_RUNS;
		c->env.wake(c->env.arg, tx->pub.core);
	}
}

void pmc_tx_end(struct dlasim_pm_ctx *c, struct pm_tx *tx)
{
	tx->pub.ended = true;
	tx->pub.end_s = now(c);
	pmc_close_record(c, tx);
}

/* ---- reads ---- */

bool pmc_dram_lookup(struct dlasim_pm_ctx *c, long addr, double *delay_s)
{
	*delay_s = 0;
	if (!(c->features & DLASIM_PM_DRAM_CACHE))
		return false;
	*delay_s = c->dram_latency_s;
	c->st.dram_lookups++;
	if (!nvm_cache_access(&c->dram, addr / LINE, false))
		return false;
	c->st.dram_hits++;
	return true;
}

void pmc_nvm_read(struct dlasim_pm_ctx *c, int core, long addr)
{
	struct pmc_op *op = new_op(c, PMC_OP_READ, false, addr, NULL, -1, NULL);

	if (!op)
		return;
	op->core = core;
	c->waits[core] = CORE_READING;
	start(c, op);
}

/* ---- completions ---- */

static void entry_done(struct dlasim_pm_ctx *c, struct pm_tx *tx, int k, double t0)
{
	struct pm_line *l = &tx->line[k];

	c->st.entry_latency_s += now(c) - t0;
	l->pub.log_state = DLASIM_PM_LOG_PERSISTED;
	tx->pub.logs_inflight--;
	if (l->pub.log == DLASIM_PM_REDO)
		pmc_move(c, tx, k, DLASIM_PM_DRAM);
	pmc_event(c, tx, k, DLASIM_PM_EV_LOGGED);
	l->rec->persisted++;
	/* After tx_end no entry waits for company: a record of entries
	 * logged since closes once they have all persisted. */
	if (tx->pub.ended && l->rec == tx->open && l->rec->persisted == l->rec->n)
		pmc_close_record(c, tx);
	else
		record_progress(c, l->rec);
}

static void header_done(struct dlasim_pm_ctx *c, struct pm_record *r)
{
	if (--r->blocks_left)
		return;
	c->st.headers_written++;
	c->st.header_latency_s += now(c) - r->t_hdr;
	if (r->blom) {
		/* A BLOM header written to make room: its ADR entries are free. */
		c->adr_headers -= la_slot_blocks(c->la, DLASIM_LA_HEADER);
		c->space_freed = true;
		r->hdr = HDR_WRITTEN;
		r->blom = false;
		return;
	}
	r->hdr = HDR_WRITTEN;
	r->durable = true;
	record_progress(c, r);
}

void pmc_op_done(struct dlasim_pm_ctx *c, struct pmc_op *op)
{
	struct pm_tx *tx = op->tx;

	switch (op->kind) {
	case PMC_OP_READ:
		if (c->waits[op->core] == CORE_READING) {
			c->waits[op->core] = CORE_RUNS;
			c->env.wake(c->env.arg, op->core);
		}
		break;
	case PMC_OP_OLD:
		entry_request(c, &tx->line[op->k]);
		break;
	case PMC_OP_ENTRY:
		entry_done(c, tx, op->k, tx->line[op->k].t0);
		break;
	case PMC_OP_HEADER:
		header_done(c, op->rec);
		break;
	case PMC_OP_HOME:
		tx->pub.homes_inflight--;
		pmc_move(c, tx, op->k, DLASIM_PM_HOME);
		pmc_event(c, tx, op->k, DLASIM_PM_EV_HOME);
		break;
	case PMC_OP_DRAIN:
	case PMC_OP_INPLACE:
		pmc_move(c, tx, op->k, DLASIM_PM_HOME);
		break;
	default:
		break;
	}
	if (tx)
		tx->ops--;
	op->next = c->free_ops;
	c->free_ops = op;
	if (c->space_freed)
		blom_serve(c);
}

/* ---- retirement ---- */

static void unqueue_header(struct dlasim_pm_ctx *c, struct pm_record *r)
{
	struct pm_record **p = &c->hslot_q, *prev = NULL;

	for (; *p && *p != r; p = &(*p)->qnext)
		prev = *p;
	if (!*p)
		return;
	*p = r->qnext;
	if (c->hslot_q_tail == r)
		c->hslot_q_tail = prev;
}

static void retire(struct dlasim_pm_ctx *c, struct pm_tx *tx)
{
	struct pm_record *r = tx->recs, *next;

	for (int k = 0; k < tx->pub.lines; k++)
		if (tx->line[k].entry >= 0)
			la_release(c->la, tx->line[k].entry, DLASIM_LA_ENTRY);
	for (; r; r = next) {
		next = r->next;
		/* A buffered header, or one waiting for a slot to be written
		 * out to make room, is no longer needed: its entries are free. */
		if (r->blom && (r->hdr == HDR_BUFFERED || r->hdr == HDR_SLOT)) {
			c->adr_headers -= la_slot_blocks(c->la, DLASIM_LA_HEADER);
			c->space_freed = true;
		}
		if (r->hdr == HDR_SLOT)
			unqueue_header(c, r);
		if (r->addr >= 0)
			la_release(c->la, r->addr, DLASIM_LA_HEADER);
		free(r);
	}
	if (tx->prev)
		tx->prev->next = tx->next;
	else
		c->head = tx->next;
	if (tx->next)
		tx->next->prev = tx->prev;
	else
		c->tail = tx->prev;
	free(tx->line);
	free(tx);
}

void pmc_retire_done(struct dlasim_pm_ctx *c)
{
	struct pm_tx *t = c->head, *next;
	bool released = false;

	for (; t; t = next) {
		next = t->next;
		if (t->pub.committed && t->pub.in[DLASIM_PM_HOME] == t->pub.lines && !t->ops &&
		    !t->refs && !t->pub.logs_inflight) {
			retire(c, t);
			released = true;
		}
	}
	if (released) {
		slots_serve(c);
		blom_serve(c);
	}
}
